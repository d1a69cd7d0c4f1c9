/** Alerts of followed laws (mail, notification title) and the API's law and follow errors: English. */
import type { LawAlertMessages } from "../es/law-alerts";

export const lawAlerts: LawAlertMessages = {
  changedTitle: (law: string, blocks: string) => `${law}: ${blocks} changed`,
  announcedTitle: (law: string, blocks: string) =>
    blocks
      ? `${law}: a change to ${blocks} was published (consolidation pending)`
      : `${law}: a change was published (consolidation pending)`,
  subjectChanged: (law: string) => `Change in ${law}`,
  subjectAnnounced: (law: string) => `Change published in ${law}`,
  introChanged: (profile: string) => `The consolidated text of a law you follow (“${profile}”) has changed.`,
  introAnnounced: (profile: string) =>
    `An act published today changes a law you follow (“${profile}”). The consolidated text will be updated later.`,
  announcedBy: (act: string, relation: string) => `${act}: ${relation}`,
  articlesNamed: "Parts affected",
  notNamed: "The act does not name the articles it affects.",
  newWording: "New wording",
  corrected: "Text corrected, same dates",
  inForce: (date: string) => `In force from ${date}`,
  publishedOn: (date: string) => `Published on ${date}`,
  compare: "See the comparison with the previous version",
  openLaw: "Open the law",
  openAct: "Open the act",
  earlier: "Earlier notice of this change",
  change: "Change or mute this follow",
  truncated: "(text shortened; the full wording is in the platform)",
  wholeLaw: "the whole law",
  errors: {
    lawNotFound:
      "We could not find that law among the ones your organisation follows. To follow a new one, type its BOE-A-… identifier.",
    badLawId:
      "Type a BOE-A-… identifier (for example BOE-A-2018-16673), a BOE ELI URL or an EU act’s CELEX number (for example 32016R0679).",
    badDate: "Type the date as YYYY-MM-DD.",
    blockNotFound: "That part of the law does not exist.",
    badBlocks: "Some of the parts you chose are not in the law.",
    badGroup: "You are not a member of that group.",
    unknownLaw: "The BOE does not know that law: it was checked and does not exist. Check the identifier.",
    tooManyFollows:
      "Your organisation already follows {limit} laws, the most it can. Stop following one to add another.",
    notFollowed: "Your organisation does not follow that law.",
    followNotFound: "We could not find that follow.",
  },
};
