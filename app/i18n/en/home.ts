import type { Messages } from "../es";

/** English: home page sections. */
export const home: Messages["home"] = {
  intro: {
    eyebrow: "Regulatory monitoring for companies",
    title: "Every regulation that affects your business, the moment it's published",
    lead: "Vigía Normativo keeps constant watch over official national and European sources — Spain's Official State Gazette (BOE), the EU Official Journal on EUR-Lex, regional gazettes and regulators' own publications — and identifies, classifies and routes each new item to the people in your company who need to see it, in real time.",
    cta: "Book a demo",
    secondaryCta: "See how it works",
    sourcesLabel: "Some of the sources we watch",
    sources: [
      "BOE",
      "EU Official Journal · EUR-Lex",
      "Regional gazettes",
      "Bank of Spain",
      "CNMV",
      "AEMPS",
      "EBA · ESMA",
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
          tags: ["Tax", "Spain"],
          to: "Tax team",
        },
        {
          source: "EUR-Lex",
          time: "09:15",
          title: "Delegated regulation on sustainability disclosures by financial institutions",
          tags: ["Sustainability", "EU"],
          to: "Compliance and Risk",
        },
        {
          source: "CNMV",
          time: "11:40",
          title: "Technical guide on selling complex investment products",
          tags: ["Securities markets"],
          to: "Legal",
        },
      ],
    },
  },
  collaboration: {
    title: "Collaborative management",
    lead: "Nobody handles regulation alone. Each document arrives with its context, and your team can discuss it, pass it on and keep a record of who did what.",
    features: [
      {
        id: "notes",
        title: "Read and annotate",
        text: "Read every legal text in the platform and add internal notes: what it means, who it affects and which deadlines apply.",
      },
      {
        id: "share",
        title: "Share with your team",
        text: "Send a document by email or to your team's chat channel in one click, with your notes attached.",
      },
      {
        id: "alerts",
        title: "Targeted alerts",
        text: "People get what concerns them: alerts segmented by profile, business area or country.",
      },
      {
        id: "groups",
        title: "Groups by department",
        text: "Administrators set up groups by area or department and choose the topics and sources each one follows.",
      },
      {
        id: "trace",
        title: "Full audit trail",
        text: "Every read, every action and everyone involved is on record — ready for an audit or a supervisor's request.",
      },
      {
        id: "mfa",
        title: "Multi-factor sign-in",
        text: "Every account signs in with multi-factor authentication. No exceptions.",
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
        text: "We continuously check official gazettes, the EU Official Journal and regulators' websites as soon as they publish.",
      },
      {
        title: "Identify",
        text: "We spot every new or amended provision and extract its key data: issuing body, type of instrument, dates and territorial scope.",
      },
      {
        title: "Classify",
        text: "We map it to topics, industries and countries using your organisation's own taxonomy.",
      },
      {
        title: "Distribute",
        text: "We deliver it to the groups and profiles it affects: in the platform, by email, in your team chat or through the API.",
      },
    ],
    pillars: [
      {
        id: "security",
        title: "Security",
        text: "Multi-factor authentication, encryption in transit and at rest, and group-based permissions: people see what they are meant to see.",
      },
      {
        id: "traceability",
        title: "Traceability",
        text: "An activity log of reads, actions and the users involved, ready to export for internal and external audits.",
      },
      {
        id: "integrations",
        title: "Integrations",
        text: "Webhooks and a REST API bring alerts into your intranet, document management system or GRC tool.",
      },
    ],
    codeTitle: "Get alerts in your own systems",
    codeText:
      "Register a webhook with your filters, and every matching item reaches your system as JSON the moment we classify it.",
    codeLabel: "Shell example: subscribing to alerts through a webhook",
  },
  useCases: {
    title: "Use cases",
    lead: "Every industry has its own sources and its own deadlines. Here are a few examples of what we watch for our customers.",
    exampleLabel: "What we watch",
    items: [
      {
        id: "banking",
        title: "Banking",
        audience: "Compliance, Risk and IT",
        example:
          "Bank of Spain circulars, EBA guidelines and Commission technical standards on capital requirements, anti-money laundering and digital operational resilience (DORA).",
      },
      {
        id: "pharma",
        title: "Pharma",
        audience: "Regulatory Affairs and Market Access",
        example:
          "Decisions by the Spanish medicines agency (AEMPS) and the European Medicines Agency, plus pricing and reimbursement orders published in the BOE.",
      },
      {
        id: "law",
        title: "Law firms",
        audience: "Every practice group",
        example:
          "All national, regional and EU legislation, filtered by practice area so each team sees its own field, annotates it and shares it with colleagues.",
      },
      {
        id: "automotive",
        title: "Automotive",
        audience: "Engineering, Quality and Public Affairs",
        example: "EU type-approval regulations, emissions standards and regional grant schemes for electric mobility.",
      },
      {
        id: "tech",
        title: "Technology",
        audience: "Legal, Privacy and Security",
        example:
          "The EU AI Act, data protection and cybersecurity (NIS2): delegated acts, guidance from the authorities and how Spain transposes them.",
      },
      {
        id: "international",
        title: "International groups",
        audience: "Group compliance and subsidiaries",
        example:
          "A single view of EU law and of every country you operate in, with alerts by country and subsidiary and a record of who reviewed each change.",
      },
    ],
  },
  contact: { title: "Contact" },
};
