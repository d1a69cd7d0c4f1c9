import type { Messages } from "../es";

/** English: page titles and descriptions of the legal pages, and the login information page. Legal texts: app/content/legal/. */
export const legal: Messages["legal"] = {
  legalNotice: {
    title: "Legal notice",
    metaTitle: "Legal notice · Vigía Normativo",
    description:
      "Who runs this website, terms of use and intellectual property, as required by Spain's Information Society Services Act (LSSI).",
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
    lead: "The platform is for customers only. There is no open sign-up: every account is created and managed by your own company.",
    points: [
      {
        title: "Accounts set up for your company",
        text: "When the service starts we create accounts for your organisation's administrators, who then invite colleagues and organise them into groups by area or department.",
      },
      {
        title: "Multi-factor authentication",
        text: "Every sign-in asks for a second factor on top of the password, so a leaked password alone never opens your account.",
      },
      {
        title: "Already a customer?",
        text: "Sign in from the link in your invitation. If you can't find it, ask your company's administrator.",
      },
    ],
    ctaTitle: "Not a customer yet?",
    ctaText: "Tell us what you need to keep track of and we'll show you the platform with sources from your industry.",
    cta: "Book a demo",
  },
};
