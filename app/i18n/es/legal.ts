/** Spanish: titles and descriptions of the legal and login pages; their texts are in app/content/legal/ (only those pages download them). */
export const legal = {
  legalNotice: {
    title: "Aviso legal",
    metaTitle: "Aviso legal · Vigía Normativo",
    description:
      "Datos identificativos del titular de este sitio web, propiedad intelectual y responsabilidad, conforme a la Ley 34/2002 de servicios de la sociedad de la información (LSSI).",
  },
  privacy: {
    title: "Política de privacidad",
    metaTitle: "Política de privacidad · Vigía Normativo",
    description:
      "Cómo tratamos los datos personales que nos facilitas en el formulario de contacto, con qué base jurídica, durante cuánto tiempo y cómo ejercer tus derechos (RGPD).",
  },
  login: {
    title: "Acceso a la plataforma",
    metaTitle: "Acceso para clientes · Vigía Normativo",
    description:
      "Cómo acceden los clientes a la plataforma de Vigía Normativo: cuentas creadas para cada empresa y autenticación multifactor.",
  },
};
