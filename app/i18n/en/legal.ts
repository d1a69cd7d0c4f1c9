import type { Messages } from "../es";

/** English: titles and descriptions of the legal and login pages; their texts are in app/content/legal/. */
export const legal: Messages["legal"] = {
  legalNotice: {
    title: "Legal notice",
    metaTitle: "Legal notice · Vigía Normativo",
    description:
      "Who runs this website, intellectual property and liability, as required by Spain's Information Society Services Act (LSSI).",
  },
  privacy: {
    title: "Privacy policy",
    metaTitle: "Privacy policy · Vigía Normativo",
    description:
      "How we handle the personal data you give us through the contact form, on what legal basis, for how long and how to exercise your rights under the GDPR.",
  },
  login: {
    title: "Access to the platform",
    metaTitle: "Customer access · Vigía Normativo",
    description:
      "How customers access the Vigía Normativo platform: accounts set up for each company and multi-factor authentication.",
  },
};
