import type { Messages } from "../es";

/** English: site-wide copy (metadata, menu, errors). */
export const common: Messages["common"] = {
  siteName: "Vigía Normativo",
  homeTitle: "Vigía Normativo · Real-time regulatory monitoring",
  homeDescription:
    "We watch official gazettes and national and European regulators, then classify and route every regulatory change to the right teams in your company in real time.",
  nav: {
    skipToContent: "Skip to content",
    collaboration: "Collaborative management",
    architecture: "Architecture and technology",
    useCases: "Use cases",
    contact: "Contact",
    login: "Log in",
    language: "Language",
    switchTo: "Español",
    switchToLabel: "Leer esta página en español",
  },
  error: {
    notFoundTitle: "Page Not Found",
    serverErrorTitle: "Internal Server Error",
    notFoundDescription: "The page you are looking for does not exist or has moved.",
    serverErrorDescription: "Something went wrong on our side. Please try again in a few minutes.",
    backHome: "Back to the home page",
  },
};
