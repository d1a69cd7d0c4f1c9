import type { Messages } from "../es";

/** English: home page sections. */
export const home: Messages["home"] = {
  intro: { title: "Real-time regulatory monitoring" },
  collaboration: { title: "Collaborative management" },
  architecture: { title: "Architecture and technology" },
  useCases: { title: "Use cases" },
  contact: { title: "Contact" },
};
