import type { Messages } from "../es";

/** English: site-wide copy (metadata, menu, footer, errors). */
export const common: Messages["common"] = {
  siteName: "Vigía Normativo",
  homeTitle: "Vigía Normativo · Real-time regulatory monitoring",
  homeDescription:
    "We watch the BOE, the Official Journal of the EU and the regulators' RSS feeds you choose, then classify and route every regulatory change to the right teams in your company in real time.",
  ogLocale: "en_GB",
  ogImageAlt: "Vigía Normativo: real-time regulatory monitoring for companies",
  nav: {
    skipToContent: "Skip to content",
    mainLabel: "Main navigation",
    homeLabel: "Vigía Normativo, go to the home page",
    toggleMenu: "Open or close the menu",
    collaboration: "Team collaboration",
    architecture: "Architecture and technology",
    useCases: "Use cases",
    contact: "Contact",
    login: "Log in",
    language: "Language",
    switchTo: "Español",
    switchToLabel: "Leer esta página en español",
    darkMode: "Dark mode",
  },
  footer: {
    about:
      "Regulatory monitoring for companies: the BOE, the Official Journal of the EU and the regulators' RSS feeds you choose, classified and delivered to the people who need them.",
    legalHeading: "Legal",
    legalNotice: "Legal notice",
    privacy: "Privacy policy",
    companyHeading: "Company",
    taxId: "Tax ID",
    languageHeading: "Language",
    rights: "All rights reserved.",
  },
  error: {
    notFoundMetaTitle: "Page not found · Vigía Normativo",
    serverErrorMetaTitle: "Error {status} · Vigía Normativo",
    notFoundTitle: "Page Not Found",
    serverErrorTitle: "Internal Server Error",
    notFoundDescription: "The page you are looking for does not exist or has moved.",
    serverErrorDescription: "Something went wrong on our side. Please try again in a few minutes.",
    backHome: "Back to the home page",
  },
};
