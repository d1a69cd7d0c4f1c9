/** The alert profile form's values: from a submitted form, from a stored profile, and to the profile schema's input. */

export interface ProfileFormValues {
  name: string;
  owner: "me" | "group";
  groupId: string;
  areas: string[];
  jurisdictions: string[];
  kinds: string[];
  sources: string[];
  minRelevance: "" | "high" | "medium" | "low";
  /** One per line. */
  keywords: string;
  query: string;
  email: "off" | "immediate" | "digest";
  digestHour: number;
  chatWebhookUrl: string;
  language: "es" | "en";
  muted: boolean;
}

export function emptyProfileValues(language: "es" | "en"): ProfileFormValues {
  return {
    name: "",
    owner: "me",
    groupId: "",
    areas: [],
    jurisdictions: [],
    kinds: [],
    sources: [],
    minRelevance: "",
    keywords: "",
    query: "",
    email: "off",
    digestHour: 8,
    chatWebhookUrl: "",
    language,
    muted: false,
  };
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
const list = (form: FormData, name: string) =>
  form.getAll(name).filter((value): value is string => typeof value === "string" && value !== "");

export function valuesFromForm(form: FormData): ProfileFormValues {
  const minRelevance = text(form, "minRelevance");
  const email = text(form, "email");
  const hour = Number.parseInt(text(form, "digestHour"), 10);
  return {
    name: text(form, "name"),
    owner: text(form, "owner") === "group" ? "group" : "me",
    groupId: text(form, "groupId"),
    areas: list(form, "areas"),
    jurisdictions: list(form, "jurisdictions"),
    kinds: list(form, "kinds"),
    sources: list(form, "sources"),
    minRelevance: minRelevance === "high" || minRelevance === "medium" || minRelevance === "low" ? minRelevance : "",
    keywords: text(form, "keywords"),
    query: text(form, "query"),
    email: email === "immediate" || email === "digest" ? email : "off",
    digestHour: Number.isInteger(hour) ? hour : Number.NaN,
    chatWebhookUrl: text(form, "chatWebhookUrl").trim(),
    language: text(form, "language") === "en" ? "en" : "es",
    muted: form.get("muted") === "on",
  };
}

const relevanceById = { 3: "high", 2: "medium", 1: "low" } as const;

export function valuesFromProfile(profile: {
  name: string;
  userId: string | null;
  groupId: string | null;
  areas: string[];
  jurisdictions: string[];
  kinds: string[];
  sources: string[];
  minRelevance: number;
  keywords: string[];
  query: string | null;
  emailMode: string;
  digestHour: number;
  chatWebhookUrl: string | null;
  language: string;
  muted: boolean;
}): ProfileFormValues {
  return {
    name: profile.name,
    owner: profile.groupId ? "group" : "me",
    groupId: profile.groupId ?? "",
    areas: profile.areas,
    jurisdictions: profile.jurisdictions,
    kinds: profile.kinds,
    sources: profile.sources,
    minRelevance: relevanceById[profile.minRelevance as 1 | 2 | 3] ?? "",
    keywords: profile.keywords.join("\n"),
    query: profile.query ?? "",
    email: profile.emailMode === "immediate" || profile.emailMode === "digest" ? profile.emailMode : "off",
    digestHour: profile.digestHour,
    chatWebhookUrl: profile.chatWebhookUrl ?? "",
    language: profile.language === "en" ? "en" : "es",
    muted: profile.muted,
  };
}

/** The profile schema's input (app/.server/alerts/profiles.ts) for these values, owned by the user or the group. */
export function profileInput(values: ProfileFormValues, userId: string) {
  const group = values.owner === "group";
  return {
    name: values.name,
    userId: group ? null : userId,
    groupId: group ? values.groupId || null : null,
    areas: values.areas,
    jurisdictions: values.jurisdictions,
    kinds: values.kinds,
    sources: values.sources,
    minRelevance: values.minRelevance || null,
    keywords: values.keywords
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
    query: values.query.trim() || null,
    email: values.email,
    digestHour: values.digestHour,
    timeZone: "Europe/Madrid",
    chatWebhookUrl: group && values.chatWebhookUrl ? values.chatWebhookUrl : null,
    language: values.language,
    muted: values.muted,
  };
}
