/** The contact form's field names and limits: tiny, so the page can use them without loading the schema. */
export const contactFieldNames = [
  "name",
  "firstName",
  "email",
  "position",
  "company",
  "phone",
  "location",
  "comments",
] as const;
export type ContactField = (typeof contactFieldNames)[number];

export const requiredContactFields: readonly ContactField[] = ["name", "firstName", "email", "company"];

/** Maximum lengths, in UTF-16 code units as the browser's maxLength counts them. */
export const contactFieldLimits: Record<ContactField, number> = {
  name: 100,
  firstName: 100,
  email: 254,
  position: 100,
  company: 100,
  phone: 30,
  location: 100,
  comments: 5000,
};

/** Hidden fields that are not part of the request itself. */
export const honeypotField = "website";
export const timeTrapField = "formToken";
export const localeField = "locale";
