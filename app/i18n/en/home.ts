import type { Messages } from "../es";

/** English: home page sections. */
export const home: Messages["home"] = {
  intro: {
    eyebrow: "Regulatory monitoring for companies",
    title: "Every regulation that affects your business, within minutes of publication",
    lead: "Vigía Normativo watches official Spanish and European sources – Spain's Official State Gazette (BOE, including the regional laws it publishes), the Official Journal of the EU (via EUR-Lex) and the regulators' RSS feeds you choose – and identifies, classifies and routes each new item to the people in your company who need to see it, in real time.",
    cta: "Request a demo",
    secondaryCta: "See how it works",
    sourcesLabel:
      "Sources: the BOE, the Official Journal of the EU and the regulators' RSS feeds you choose, for example",
    sources: [
      "BOE",
      "Official Journal of the EU · EUR-Lex",
      "Banco de España (RSS)",
      "CNMV (RSS)",
      "AEMPS (RSS)",
      "EBA · ESMA (RSS)",
    ],
    feed: {
      title: "What an alert looks like",
      note: "Illustrative example",
      deliveredTo: "Sent to",
      items: [
        {
          source: "BOE",
          time: "07:58",
          title: "Ministerial order updating the tax information return forms",
          tags: ["Tax", "Spain (State)"],
          to: "Tax team",
        },
        {
          source: "EUR-Lex",
          time: "09:15",
          title: "Delegated regulation on sustainability disclosures by financial institutions",
          tags: ["Sustainability reporting", "European Union"],
          to: "Compliance and Risk",
        },
        {
          source: "CNMV",
          time: "11:40",
          title: "Technical guide on selling complex investment products",
          tags: ["Securities and investment", "Spain (State)"],
          to: "Legal",
        },
      ],
    },
  },
  collaboration: {
    title: "Team collaboration",
    lead: "Regulatory change is a team effort. Each document arrives with its context, and your team can discuss it, share it and keep a record of who did what.",
    features: [
      {
        id: "notes",
        title: "Read and annotate",
        text: "Read the full text of every BOE and EU act in the platform and add internal notes – private, for your group or for the whole organisation: what it means, who it affects and which deadlines apply.",
      },
      {
        id: "share",
        title: "Share with your team",
        text: "Send a document by email, to colleagues or to outside recipients, or to your group's Slack or Microsoft Teams channel, with a message. Internal notes never leave your organisation.",
      },
      {
        id: "alerts",
        title: "Targeted alerts",
        text: "Everyone gets only what concerns them: alerts by profile, topic and territory (EU, Spain or an autonomous community), with the minimum relevance you choose, instantly or in a daily digest.",
      },
      {
        id: "groups",
        title: "Groups by area or department",
        text: "Administrators set up groups by area or department and choose the topics and sources each one follows.",
      },
      {
        id: "trace",
        title: "Full audit trail",
        text: "Who read each document and what each user did in the platform is on record, in a tamper-evident chained log – ready for an audit or a regulator's request.",
      },
      {
        id: "mfa",
        title: "Multi-factor sign-in",
        text: "Every user signs in with a mandatory second factor: a TOTP code or a passkey. No exceptions.",
      },
    ],
  },
  architecture: {
    title: "Architecture and technology",
    lead: "One continuous flow, from the official source to the right person's inbox, in four steps.",
    stepsLabel: "How it works",
    steps: [
      {
        title: "Watch",
        text: "We check the BOE and the Official Journal of the EU every few minutes while they publish, plus the regulators' RSS feeds you configure.",
      },
      {
        title: "Identify",
        text: "We spot every new or amended provision and extract its key data: issuing body, type of instrument, dates, territorial scope and its links to earlier rules (amends, repeals).",
      },
      {
        title: "Classify",
        text: "We tag it by topic, territory (EU, Spain or an autonomous community), type of instrument and relevance, and show why each tag applies. Add your own topics with keyword rules.",
      },
      {
        title: "Distribute",
        text: "We deliver it to the groups and profiles it affects: in the platform, by email (instantly or in a daily digest), in Slack or Microsoft Teams, or through the API.",
      },
    ],
    pillars: [
      {
        id: "security",
        title: "Security",
        text: "A mandatory second factor (TOTP or passkey), revocable sessions, passwords stored with a costly key-derivation function, roles (owner, admin, member) and full isolation between organisations.",
      },
      {
        id: "traceability",
        title: "Traceability",
        text: "An activity log of reads, actions and the users involved, chained and verifiable, ready to export as CSV or JSON for internal and external audits.",
      },
      {
        id: "integrations",
        title: "Integrations",
        text: "Signed webhooks and a REST API documented in OpenAPI bring alerts into your intranet, document management system or GRC tool.",
      },
    ],
    codeTitle: "Get alerts in your own systems",
    codeText:
      "Register a webhook with your filters, and every matching item reaches your system as signed JSON as soon as we classify it.",
    codeLabel: "Shell example: subscribing to alerts through a webhook",
  },
  useCases: {
    title: "Use cases",
    lead: "Every industry has its own sources and its own priorities. Here are a few examples of what Vigía Normativo watches in each.",
    exampleLabel: "What we watch",
    items: [
      {
        id: "banking",
        title: "Banking",
        audience: "Compliance, Risk and IT",
        example:
          "Banco de España circulars, EBA guidelines and Commission technical standards on capital requirements, anti-money laundering and digital operational resilience (DORA).",
      },
      {
        id: "pharma",
        title: "Pharma",
        audience: "Regulatory affairs and Market access",
        example:
          "AEMPS resolutions, EU acts on medicines and medical devices, and reference-pricing orders published in the BOE.",
      },
      {
        id: "law",
        title: "Law firms",
        audience: "Every practice group",
        example:
          "All Spanish and EU legislation, plus the regional laws published in the BOE, filtered by practice area so each team sees its own field, annotates it and shares it with colleagues.",
      },
      {
        id: "automotive",
        title: "Automotive",
        audience: "Engineering, Quality and Public affairs",
        example:
          "EU type-approval regulations, emissions standards and calls for electric-mobility grants published in the BOE.",
      },
      {
        id: "tech",
        title: "Technology",
        audience: "Legal, Privacy and Security",
        example:
          "The EU AI Act, data protection and cybersecurity (NIS2): delegated and implementing acts, guidance from the authorities and the Spanish rules that implement or transpose them.",
      },
      {
        id: "international",
        title: "International groups",
        audience: "Group compliance and Subsidiaries",
        example:
          "EU and Spanish regulation in one view, with groups by subsidiary and a record of who has read each item.",
      },
    ],
  },
  contact: { title: "Contact" },
};
