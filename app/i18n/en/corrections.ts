/** Corrections of a document's areas (the document page, the admins' list): English. */
import type { CorrectionMessages } from "../es/corrections";

export const corrections: CorrectionMessages = {
  heading: "Correct the areas",
  lead: "Is an area wrong, or one missing? Your correction changes what your organisation sees at once (the page, search and alerts), and we review it to improve the classification.",
  area: "Area",
  chooseArea: "Choose an area",
  action: "Correction",
  remove: "Wrong: the document is not about this area",
  add: "Missing: the document is about this area",
  reason: "Reason",
  reasonHint: "For example: “It is about credit insurance, not banking”.",
  submit: "Save the correction",
  saved: "Correction saved. Your alerts have already been checked against the corrected areas.",
  undone: "Correction undone: the original label is back.",
  formError: "Check the fields marked.",
  addedBy: "Added by {name} on {date}: {reason}",
  removedHeading: "Areas your organisation removed",
  removedBy: "Removed by {name} on {date}: {reason}",
  correctedBadge: "corrected",
  adminHeading: "Area corrections",
  adminLead:
    "Your organisation's corrections, newest first. Download them as labelled data to review them or to measure the classifier with them.",
  adminEmpty: "Your organisation has not corrected any area yet.",
  exportCsv: "Download CSV",
  exportJson: "Download JSON",
  columns: { document: "Document", area: "Area", action: "Correction", reason: "Reason", by: "By", at: "Date" },
  actions: { add: "Added", remove: "Removed" },
};
