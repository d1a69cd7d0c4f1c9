/** What alerts say outside the platform (mail now, digest, Slack, Teams, shared documents) in English. */
import type { ChannelMessages } from "../es/channels";

export const channels: ChannelMessages = {
  alert: {
    subject: "New alert: {title}",
    intro: "A new document matches your profile “{profile}”.",
    open: "Open in the platform",
    official: "Official publication",
    change: "Change or mute this profile",
  },
  digest: {
    subject: { one: "Digest for {day}: {count} document", other: "Digest for {day}: {count} documents" },
    intro: "Documents of {day} that match your profiles:",
    profiles: "Profiles",
    subjectDeadline: { one: "Digest for {day}: {count} deadline", other: "Digest for {day}: {count} deadlines" },
    deadlines: "Your deadlines, overdue or coming up:",
    decision: "Decide whether “{title}” applies",
    obligation: "Obligation “{title}” (from “{document}”)",
    overdue: "was due on {date}",
    dueToday: "due today",
    dueOn: "due on {date}",
  },
  chat: {
    intro: "New document for “{profile}”",
    shared: "{who} shared a document",
    published: "Published",
  },
  webhookInput: {
    url: "The URL must be a public http(s) URL.",
    area: "Unknown area.",
    jurisdiction: "Unknown jurisdiction.",
    kind: "Unknown document kind.",
    source: "Unknown source.",
    relevance: "Invalid relevance: high, medium or low.",
    q: "The query takes at most 500 characters.",
    events: "Invalid events: choose at least one of {types}.",
  },
  share: {
    subject: "{who} sent you: {title}",
    intro: "{who} shared this document with you.",
    message: "Message",
    summary: "Summary",
  },
};
