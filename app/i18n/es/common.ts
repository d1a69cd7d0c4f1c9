/** Spanish: site-wide copy (metadata, menu, footer, errors). */
export const common = {
  siteName: "Vigía Normativo",
  homeTitle: "Vigía Normativo · Vigilancia regulatoria en tiempo real",
  homeDescription:
    "Vigilamos el BOE, el Diario Oficial de la UE y los canales RSS de los supervisores que elijas, y clasificamos y distribuimos cada novedad normativa a los equipos de tu empresa en tiempo real.",
  ogLocale: "es_ES",
  ogImageAlt: "Vigía Normativo: vigilancia regulatoria en tiempo real para empresas",
  nav: {
    skipToContent: "Saltar al contenido",
    mainLabel: "Navegación principal",
    homeLabel: "Vigía Normativo, ir al inicio",
    toggleMenu: "Abrir o cerrar el menú",
    collaboration: "Gestión colaborativa",
    architecture: "Arquitectura y tecnología",
    useCases: "Casos de uso",
    contact: "Contacto",
    login: "Acceder",
    language: "Idioma",
    switchTo: "English",
    switchToLabel: "Read this page in English",
    darkMode: "Modo oscuro",
  },
  footer: {
    about:
      "Vigilancia regulatoria para empresas: el BOE, el Diario Oficial de la UE y los canales RSS de los supervisores que elijas, clasificados y entregados a quien los necesita.",
    legalHeading: "Información legal",
    legalNotice: "Aviso legal",
    privacy: "Política de privacidad",
    companyHeading: "Empresa",
    taxId: "NIF",
    languageHeading: "Idioma",
    rights: "Todos los derechos reservados.",
  },
  error: {
    /** The <title> of the error pages, in the page's language; {status} is the HTTP status. */
    notFoundMetaTitle: "Página no encontrada · Vigía Normativo",
    serverErrorMetaTitle: "Error {status} · Vigía Normativo",
    notFoundTitle: "Page Not Found",
    serverErrorTitle: "Internal Server Error",
    notFoundDescription: "La página que buscas no existe o ha cambiado de dirección.",
    serverErrorDescription: "Algo ha fallado en nuestro servidor. Inténtalo de nuevo en unos minutos.",
    backHome: "Volver al inicio",
  },
};
