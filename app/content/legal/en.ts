import type { LegalTexts } from "./es.ts";

/** English legal texts (legal notice, privacy policy) and the login information page. */
export const legalTexts: LegalTexts = {
  lastUpdatedLabel: "Last updated",
  lastUpdated: "1 January 2025",
  onThisPage: "On this page",
  /** Shown after the controller when company.dpoEmail is set. */
  dpo: "You can contact our data protection officer (DPO) at {dpoEmail}.",
  identity: {
    heading: "Company details",
    legalName: "Website owner",
    taxId: "Tax ID (NIF)",
    address: "Registered office",
    registry: "Commercial Registry entry",
    email: "Email",
  },
  legalNotice: {
    title: "Legal notice",
    lead: "As required by article 10 of Spain's Information Society Services and Electronic Commerce Act (Law 34/2002, LSSI), here is who runs this website.",
    sections: [
      {
        heading: "Purpose",
        paragraphs: [
          "This website presents {tradeName}'s regulatory monitoring platform and lets interested companies ask for information or a demo. Using the site is free and needs no registration.",
        ],
      },
      {
        heading: "Intellectual property",
        paragraphs: [
          "The text, design, logos and code of this site belong to {legalName} or are used under licence. They may not be reproduced, distributed or adapted without prior written permission, except for personal, private use.",
          "The legislation quoted comes from official sources and is not subject to copyright (article 13 of the Spanish Intellectual Property Act). It is reused with attribution: BOE content under the reuse conditions of the Agencia Estatal Boletín Oficial del Estado, and EUR-Lex content under Decision 2011/833/EU. Only the texts published in the official journals are legally valid.",
        ],
      },
      {
        heading: "Liability",
        paragraphs: [
          "The information on this site is general and is not legal advice. We take great care to keep it accurate and up to date, but we cannot be held responsible for decisions based on it alone.",
          "Links to third-party sites are provided for information only; we do not control or answer for their content.",
        ],
      },
      {
        heading: "Governing law",
        paragraphs: [
          "This legal notice is governed by Spanish law. Unless consumer law provides otherwise, any dispute will be settled by the courts of {city}.",
        ],
      },
    ],
  },
  privacy: {
    title: "Privacy policy",
    lead: "In line with article 13 of the General Data Protection Regulation (GDPR) and Spain's data protection act (LOPDGDD), this policy explains what we do with your data when you visit this site or get in touch.",
    sections: [
      {
        heading: "Data controller",
        paragraphs: [
          "{legalName}, tax ID {taxId}, registered office at {address}. For any privacy matter, write to {privacyEmail}.",
        ],
      },
      {
        heading: "What data we use and why",
        paragraphs: [
          "When you fill in the contact form we use the details you give us – first name, surname, email, company and, if you add them, job title, phone, location and comments – to answer your enquiry, arrange a demo and, if you wish, prepare a proposal. The fields marked with * are needed to answer your request; without them we cannot reply.",
          "To protect the form against abuse we process your IP address for at most one hour (submission limits). With your request, and for the same retention period, we keep your browser's identifier (user agent) and a pseudonymised fingerprint (a keyed hash) of your IP address.",
          "We make no automated decisions and build no profiles from this data.",
        ],
      },
      {
        heading: "Legal basis",
        paragraphs: [
          "Steps taken at your request before entering into a contract (GDPR article 6(1)(b)) to handle your request for information or a demo, and our legitimate interest in protecting the site against abuse (article 6(1)(f)).",
        ],
      },
      {
        heading: "Recipients",
        paragraphs: [
          "We do not pass your data on to third parties unless the law requires it. Our hosting and email providers process it on our behalf, under contracts that meet GDPR article 28, within the European Economic Area. No international transfers are planned.",
        ],
      },
      {
        heading: "How long we keep it",
        paragraphs: [
          "Contact requests are kept for up to two years from receipt and then deleted automatically. If your company takes out the service, we will process your contact details under the contract and the platform's privacy notice.",
        ],
      },
      {
        heading: "Your rights",
        paragraphs: [
          "You can ask to access, correct or erase your data, object to its use, restrict it, or receive it in a portable format.",
          "To do so, email {privacyEmail} or write to {address}, saying which right you are exercising. We will reply within one month.",
          "If you consider that the processing of your data does not comply with the law, you can lodge a complaint with the Spanish Data Protection Agency (AEPD), C/ Jorge Juan, 6, 28001 Madrid, www.aepd.es.",
        ],
      },
      {
        heading: "Cookies and local storage",
        paragraphs: [
          "The public pages of this site set a single first-party technical (personalisation) cookie called “locale”. It remembers the language you read the site in (Spanish or English) so that it opens in that language on your next visits, and it expires after 365 days. Because it is needed to provide the service you ask for, it does not require consent (LSSI article 22(2)).",
          "If you use the platform (/app), signing in also sets first-party technical session cookies whose names start with “vn.”: they keep you signed in and protect the second factor. They end when you sign out, after 12 hours without activity and after 7 days at most; they do not require consent either (LSSI article 22(2)).",
          "On the platform's home page, the filters you choose for the latest documents are kept in a first-party personalisation cookie, “vn.home_filters”, so you see them the same way next time; it expires after 365 days and does not require consent either (LSSI article 22(2)).",
          "If you pick light or dark mode, that preference is kept in your browser's local storage and is never sent to us. After a site update, the time of the page's last automatic reload is also kept there so that it does not reload twice; it is not sent to us either.",
          "We use no analytics, advertising or social media cookies.",
        ],
      },
    ],
  },
};
