/** Spanish: page titles and descriptions of the legal pages, and the login information page. Legal texts: app/content/legal/. */
export const legal = {
  legalNotice: {
    title: "Aviso legal",
    metaTitle: "Aviso legal · Vigía Normativo",
    description:
      "Datos identificativos del titular de este sitio web, condiciones de uso y propiedad intelectual, conforme a la Ley 34/2002 de servicios de la sociedad de la información (LSSI).",
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
    lead: "La plataforma está reservada a los clientes. No hay registro abierto: cada acceso lo crea y lo controla tu propia empresa.",
    points: [
      {
        title: "Cuentas creadas para tu empresa",
        text: "Al empezar el servicio damos de alta a los administradores de tu organización, que a su vez invitan a sus compañeros y los organizan en grupos por área o departamento.",
      },
      {
        title: "Autenticación multifactor",
        text: "Cada acceso exige un segundo factor además de la contraseña. Así, aunque una contraseña se filtre, nadie entra en vuestra cuenta.",
      },
      {
        title: "¿Ya eres cliente?",
        text: "Entra desde el enlace que recibiste en tu invitación. Si lo has perdido, pide ayuda al administrador de tu empresa.",
      },
    ],
    ctaTitle: "¿Aún no eres cliente?",
    ctaText: "Cuéntanos qué necesitas vigilar y te enseñamos la plataforma con fuentes de tu sector.",
    cta: "Solicita una demostración",
  },
};
