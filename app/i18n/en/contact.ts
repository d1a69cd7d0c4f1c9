import type { Messages } from "../es";

/** English: the contact section, its form, its validation messages and the server's answers. */
export const contact: Messages["contact"] = {
  title: "Request a demo",
  intro:
    "Tell us who you are and which regulations matter to you. Someone from our team will get back to you. We do not pass your details on to third parties.",
  requiredNote: "Fields marked with * are needed to answer your request.",
  fields: {
    name: "First name",
    firstName: "Surname",
    email: "Email",
    position: "Job title",
    company: "Company",
    phone: "Phone",
    location: "City or country",
    comments: "Comments",
  },
  honeypot: "Leave this field empty",
  submit: "Request a demo",
  sending: "Sending…",
  success: "Message sent",
  successDetail: "Thank you. We have received your request and will answer soon.",
  failure: "Error sending the message",
  failureDetail: "Check the highlighted fields or try again in a few minutes.",
  close: "Close",
  errors: {
    required: "This field is required.",
    tooLong: "At most {max} characters.",
    email: "Enter a valid email address, such as name@company.com.",
    phone: "Enter a valid phone number: digits, spaces, +, -, brackets.",
    invalid: "Invalid value.",
  },
  status: {
    400: "The request is not valid JSON.",
    405: "Method not allowed: use POST.",
    413: "The request is too large (64 KB at most).",
    415: "Unsupported content type: use application/json or application/x-www-form-urlencoded.",
    422: "Some fields are not valid.",
    429: "Too many requests. Wait a moment and try again.",
    500: "Internal server error. Please try again later.",
    503: "The service is unavailable right now. Please try again in a few minutes.",
  },
  privacy: {
    before: "By submitting this form you accept the ",
    link: "privacy policy",
    after: ".",
    tableCaption: "Basic data protection information",
    controllerLabel: "Controller",
    dpoLabel: "DPO",
    purposeLabel: "Purpose",
    purpose: "To answer your request for information or a demo and to contact you about it.",
    legalBasisLabel: "Legal basis",
    legalBasis:
      "Steps taken at your request before a contract (art. 6.1.b GDPR) and our legitimate interest in protecting the form from abuse (art. 6.1.f GDPR).",
    recipientsLabel: "Recipients",
    recipients:
      "No data is passed to third parties unless the law requires it. Hosting and mail providers act as processors.",
    rightsLabel: "Rights",
    rights: "Access, rectify and erase your data, and other rights, as explained in the additional information.",
    moreLabel: "Additional information",
    more: "Full details are in our ",
  },
};
