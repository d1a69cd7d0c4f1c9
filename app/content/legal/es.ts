/**
 * Spanish legal texts (legal notice, privacy policy) and the login information page: the source of truth for their shape.
 * Kept out of the message catalogs so that only the legal pages download them.
 * Placeholders in braces ({legalName}, {email}, …) are filled from app/content/company.ts.
 */
export const legalTexts = {
  lastUpdatedLabel: "Última actualización",
  lastUpdated: "1 de enero de 2025",
  onThisPage: "En esta página",
  /** Shown after the controller when company.dpoEmail is set. */
  dpo: "Puedes contactar con nuestro delegado de protección de datos (DPD) en {dpoEmail}.",
  identity: {
    heading: "Datos identificativos",
    legalName: "Titular",
    taxId: "NIF",
    address: "Domicilio social",
    registry: "Datos registrales",
    email: "Correo electrónico",
  },
  legalNotice: {
    title: "Aviso legal",
    lead: "En cumplimiento del artículo 10 de la Ley 34/2002, de 11 de julio, de servicios de la sociedad de la información y de comercio electrónico (LSSI), te facilitamos los datos identificativos del titular de este sitio web.",
    sections: [
      {
        heading: "Objeto",
        paragraphs: [
          "Este sitio web presenta la plataforma de vigilancia regulatoria de {tradeName} y permite a las empresas interesadas solicitar información o una demo. El acceso al sitio es gratuito y no requiere registro.",
        ],
      },
      {
        heading: "Propiedad intelectual e industrial",
        paragraphs: [
          "Los textos, el diseño, los logotipos y el código de este sitio pertenecen a {legalName} o se usan con licencia. No está permitida su reproducción, distribución o transformación sin autorización previa y por escrito, salvo para uso personal y privado.",
          "Las disposiciones normativas que se citan proceden de fuentes oficiales y no son objeto de propiedad intelectual (artículo 13 del texto refundido de la Ley de Propiedad Intelectual). Su reutilización se hace con atribución: los contenidos del BOE, conforme a las condiciones de reutilización de la Agencia Estatal Boletín Oficial del Estado, y los de EUR-Lex, conforme a la Decisión 2011/833/UE. Solo tienen validez jurídica los textos publicados en los diarios oficiales.",
        ],
      },
      {
        heading: "Responsabilidad",
        paragraphs: [
          "La información de este sitio es de carácter general y no constituye asesoramiento jurídico. Ponemos el máximo cuidado en que sea exacta y esté actualizada, pero no respondemos de las decisiones que se tomen basándose únicamente en ella.",
          "Los enlaces a sitios de terceros se incluyen a título informativo; no controlamos su contenido ni respondemos de él.",
        ],
      },
      {
        heading: "Legislación aplicable",
        paragraphs: [
          "Este aviso legal se rige por la legislación española. Para cualquier controversia, y salvo que la normativa de consumidores disponga otra cosa, las partes se someten a los juzgados y tribunales de {city}.",
        ],
      },
    ],
  },
  privacy: {
    title: "Política de privacidad",
    lead: "Esta política explica, conforme al artículo 13 del Reglamento General de Protección de Datos (RGPD) y a la Ley Orgánica 3/2018 (LOPDGDD), qué hacemos con tus datos cuando visitas este sitio o nos escribes.",
    sections: [
      {
        heading: "Responsable del tratamiento",
        paragraphs: [
          "{legalName}, con NIF {taxId} y domicilio en {address}. Puedes escribirnos sobre cualquier cuestión de privacidad a {privacyEmail}.",
        ],
      },
      {
        heading: "Qué datos tratamos y para qué",
        paragraphs: [
          "Cuando rellenas el formulario de contacto tratamos los datos que nos das —nombre, apellidos, correo electrónico, empresa y, si los indicas, cargo, teléfono, ubicación y comentarios— para responder a tu consulta, organizar una demo y, si te interesa, preparar una propuesta. Los campos marcados con * son necesarios para atender tu solicitud; sin ellos no podremos responderte.",
          "Para proteger el formulario frente a envíos abusivos tratamos tu dirección IP durante como máximo una hora (límites de envíos). Con tu solicitud, y durante el mismo plazo de conservación, guardamos el identificador de tu navegador (user agent) y una huella seudonimizada (hash con clave) de tu dirección IP.",
          "No tomamos decisiones automatizadas ni elaboramos perfiles con estos datos.",
        ],
      },
      {
        heading: "Base jurídica",
        paragraphs: [
          "La aplicación, a petición tuya, de medidas precontractuales (artículo 6.1.b del RGPD) para atender tu solicitud de información o de demo, y nuestro interés legítimo en proteger el sitio frente a abusos (artículo 6.1.f).",
        ],
      },
      {
        heading: "Destinatarios",
        paragraphs: [
          "No cedemos tus datos a terceros salvo obligación legal. Acceden a ellos, como encargados del tratamiento y con contrato conforme al artículo 28 del RGPD, los proveedores que nos prestan alojamiento y correo electrónico, dentro del Espacio Económico Europeo. No hay transferencias internacionales previstas.",
        ],
      },
      {
        heading: "Conservación",
        paragraphs: [
          "Conservamos las solicitudes de contacto un máximo de dos años desde su recepción; pasado ese plazo se eliminan automáticamente. Si tu empresa contrata el servicio, trataremos tus datos de contacto conforme al contrato y a la información de privacidad de la plataforma.",
        ],
      },
      {
        heading: "Tus derechos",
        paragraphs: [
          "Puedes acceder a tus datos, rectificarlos, suprimirlos, oponerte a su tratamiento, solicitar su limitación o su portabilidad.",
          "Para ejercerlos, escríbenos a {privacyEmail} o por correo postal a {address}, indicando el derecho que ejerces. Responderemos en el plazo de un mes.",
          "Si consideras que el tratamiento de tus datos no se ajusta a la normativa, puedes presentar una reclamación ante la Agencia Española de Protección de Datos (AEPD), C/ Jorge Juan, 6, 28001 Madrid, www.aepd.es.",
        ],
      },
      {
        heading: "Cookies y almacenamiento local",
        paragraphs: [
          "Las páginas públicas de este sitio usan una única cookie propia de carácter técnico (personalización), llamada «locale». Guarda el idioma en el que ves el sitio (español o inglés) para mostrártelo en ese idioma en tus próximas visitas y caduca a los 365 días. Al ser necesaria para prestar el servicio que solicitas, no requiere consentimiento (artículo 22.2 de la LSSI).",
          "Si usas la plataforma (/app), al iniciar sesión se crean además cookies propias de sesión, de carácter técnico, cuyo nombre empieza por «vn.»: te mantienen identificado y protegen el segundo factor de autenticación. Caducan al cerrar la sesión, tras 12 horas sin actividad y, como máximo, a los 7 días; tampoco requieren consentimiento (artículo 22.2 de la LSSI).",
          "En la portada de la plataforma, los filtros que eliges para los últimos documentos se guardan en una cookie propia de personalización, «vn.home_filters», para mostrártelos igual la próxima vez; caduca a los 365 días y tampoco requiere consentimiento (artículo 22.2 de la LSSI).",
          "Si eliges modo claro u oscuro, esa preferencia se guarda en el almacenamiento local de tu navegador y nunca se nos envía. Tras una actualización del sitio también se guarda allí la hora de la última recarga automática de la página, para no repetirla; tampoco se nos envía.",
          "No usamos cookies de análisis, publicidad ni redes sociales.",
        ],
      },
    ],
  },
};

export type LegalTexts = typeof legalTexts;
