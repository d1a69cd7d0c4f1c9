/** Alerts of followed laws (mail, notification title) and the API's law and follow errors: Spanish. */
export const lawAlerts = {
  changedTitle: (law: string, blocks: string) => `${law}: cambia ${blocks}`,
  announcedTitle: (law: string, blocks: string) =>
    blocks
      ? `${law}: publicado un cambio en ${blocks} (consolidación pendiente)`
      : `${law}: publicado un cambio (consolidación pendiente)`,
  subjectChanged: (law: string) => `Cambio en ${law}`,
  subjectAnnounced: (law: string) => `Cambio publicado en ${law}`,
  introChanged: (profile: string) => `El texto consolidado de una norma que sigues («${profile}») ha cambiado.`,
  introAnnounced: (profile: string) =>
    `Hoy se ha publicado una disposición que cambia una norma que sigues («${profile}»). El texto consolidado se actualizará más adelante.`,
  announcedBy: (act: string, relation: string) => `${act}: ${relation}`,
  articlesNamed: "Partes afectadas",
  notNamed: "La disposición no detalla los artículos afectados.",
  newWording: "Nueva redacción",
  corrected: "Corrección del texto, con las mismas fechas",
  inForce: (date: string) => `En vigor desde el ${date}`,
  publishedOn: (date: string) => `Publicado el ${date}`,
  compare: "Ver la comparación con la versión anterior",
  openLaw: "Ver la norma",
  openAct: "Ver la disposición",
  earlier: "Aviso previo de este cambio",
  change: "Cambiar o silenciar este seguimiento",
  truncated: "(texto recortado; la redacción completa está en la plataforma)",
  wholeLaw: "toda la norma",
  errors: {
    lawNotFound:
      "No encontramos esa norma entre las que sigue tu organización. Para seguir una nueva, escribe su identificador BOE-A-….",
    badLawId:
      "Escribe un identificador BOE-A-… (por ejemplo, BOE-A-2018-16673), una URL ELI del BOE o el número CELEX de un acto de la UE (por ejemplo, 32016R0679).",
    badDate: "Escribe la fecha como AAAA-MM-DD.",
    blockNotFound: "Esa parte de la norma no existe.",
    badBlocks: "Alguna de las partes que eliges no está en la norma.",
    badGroup: "No perteneces a ese grupo.",
    unknownLaw: "El BOE no conoce esa norma: lo ha comprobado y no existe. Revisa el identificador.",
    tooManyFollows: "Tu organización ya sigue {limit} leyes, el máximo. Deja de seguir alguna para añadir otra.",
    notFollowed: "Tu organización no sigue esa norma.",
    followNotFound: "No encontramos ese seguimiento.",
  },
};
export type LawAlertMessages = typeof lawAlerts;
