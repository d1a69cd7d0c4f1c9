/** Spanish: site-wide copy (metadata, menu, errors). */
export const common = {
  siteName: "Vigía Normativo",
  homeTitle: "Vigía Normativo · Vigilancia regulatoria en tiempo real",
  homeDescription:
    "Vigilamos boletines oficiales y reguladores nacionales y europeos, y clasificamos y distribuimos cada novedad normativa a los equipos de tu empresa en tiempo real.",
  nav: {
    skipToContent: "Saltar al contenido",
    collaboration: "Gestión colaborativa",
    architecture: "Arquitectura y tecnología",
    useCases: "Casos de uso",
    contact: "Contacto",
    login: "Acceder",
    language: "Idioma",
    switchTo: "English",
    switchToLabel: "Read this page in English",
  },
  error: {
    notFoundTitle: "Page Not Found",
    serverErrorTitle: "Internal Server Error",
    notFoundDescription: "La página que buscas no existe o ha cambiado de dirección.",
    serverErrorDescription: "Algo ha fallado en nuestro servidor. Inténtalo de nuevo en unos minutos.",
    backHome: "Volver al inicio",
  },
};
