/** Corrections of a document's areas (the document page, the admins' list): Spanish. */
export const corrections = {
  heading: "Corrige las áreas",
  lead: "¿Sobra un área o falta otra? Tu corrección cambia lo que ve tu organización al momento (la página, la búsqueda y las alertas) y la revisamos para mejorar la clasificación.",
  area: "Área",
  chooseArea: "Elige un área",
  action: "Corrección",
  remove: "Sobra: el documento no es de esta área",
  add: "Falta: el documento es de esta área",
  reason: "Motivo",
  reasonHint: "Por ejemplo: «Trata de seguros de crédito, no de banca».",
  submit: "Guardar la corrección",
  saved: "Corrección guardada. Tus alertas ya se han comprobado con las áreas corregidas.",
  undone: "Corrección deshecha: vuelve la etiqueta original.",
  formError: "Revisa los campos marcados.",
  addedBy: "Añadida por {name} el {date}: {reason}",
  removedHeading: "Áreas que tu organización ha quitado",
  removedBy: "Quitada por {name} el {date}: {reason}",
  correctedBadge: "corregida",
  adminHeading: "Correcciones de áreas",
  adminLead:
    "Las correcciones de tu organización, de la más reciente a la más antigua. Descárgalas como datos etiquetados para revisarlas o para medir el clasificador con ellas.",
  adminEmpty: "Tu organización aún no ha corregido ninguna área.",
  exportCsv: "Descargar CSV",
  exportJson: "Descargar JSON",
  columns: { document: "Documento", area: "Área", action: "Corrección", reason: "Motivo", by: "Por", at: "Fecha" },
  actions: { add: "Añadida", remove: "Quitada" },
};

export type CorrectionMessages = typeof corrections;
