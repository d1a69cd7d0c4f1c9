/** What the server itself writes (see es/server.ts): English. */
import type { ServerMessages } from "../es/server.ts";

export const serverMessages: ServerMessages = {
  api: {
    400: "Malformed request",
    401: "Missing or invalid access token",
    403: "The token is not allowed to do this",
    404: "Not found",
    405: "Method not allowed",
    413: "Request body too large",
    415: "Unsupported content type",
    422: "Some parameters are invalid",
    429: "Too many requests; try again later",
    500: "Internal server error",
    503: "Service unavailable",
  },
  notes: {
    body: "Write the note (at most 10,000 characters).",
    visibility: "Invalid visibility: private, group or organization.",
    group: "Choose one of your groups for a group note.",
    paragraph: "Invalid paragraph.",
  },
  sharing: {
    recipients: "Enter 1 to 20 valid email addresses.",
    message: "The message takes at most 2,000 characters.",
  },
  documentForms: {
    body: "Write the note (at most 10,000 characters).",
    visibility: "Choose who sees it: only you, your group or the whole organisation.",
    groupId: "Choose one of your groups for a group note.",
    paragraph: "Enter the number of a paragraph of the text, or leave it empty.",
    recipients: "Enter 1 to 20 valid email addresses, separated by commas.",
    message: "The message takes at most 2,000 characters.",
  },
  topics: {
    name: "Enter a name of 1 to 80 characters.",
    keywords: "Enter 1 to {max} words or phrases, one per line, each 2 to 80 characters long.",
    area: "Choose an area from the list.",
  },
  corrections: {
    area: "Choose an area from the list.",
    action: "Choose whether the area is wrong or missing.",
    reason: "Give the reason in 3 to 500 characters.",
    alreadyHas: "The document already has that area.",
    doesNotHave: "The document does not have that area.",
  },
  mails: {
    roles: { owner: "owner", admin: "admin", member: "member" },
    invitation: {
      subject: "Invitation to {organization} on Vigía Normativo",
      someone: "An administrator",
      invites: "{inviter} invites you to {organization} on Vigía Normativo (role: {role}).",
      next: "Open the link to choose your name and password, then set up a second factor. The link is valid for 7 days and can be used once.",
      unexpected: "If you were not expecting this invitation, ignore this mail.",
      link: "Accept the invitation",
    },
    passwordReset: {
      subject: "Reset your Vigía Normativo password",
      asked: "Someone asked to reset the password of your Vigía Normativo account.",
      validity:
        "The link is valid for one hour and can be used once. If it was not you, ignore this mail: your password stays as it is.",
      link: "Choose a new password",
    },
    newDevice: {
      subject: "New sign-in to Vigía Normativo",
      signedIn: "Your Vigía Normativo account was signed in to from a device we had not seen before, on {when} UTC.",
      device: "Device: {device}. IP address: {ip}.",
      unknownDevice: "unknown",
      notYou: "If it was not you, end that session and change your password.",
      link: "Review my sessions",
    },
  },
};
