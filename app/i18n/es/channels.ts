/** What alerts say outside the platform (mail now, digest, Slack, Teams, shared documents) in Spanish: the source of truth for ../en/channels.ts. */
export const channels = {
  alert: {
    subject: "Nueva alerta: {title}",
    intro: "Un documento nuevo coincide con tu perfil «{profile}».",
    open: "Ver en la plataforma",
    official: "Publicación oficial",
    change: "Cambiar o silenciar este perfil",
  },
  digest: {
    subjectOne: "Resumen del {day}: {count} documento",
    subjectOther: "Resumen del {day}: {count} documentos",
    intro: "Documentos del {day} que coinciden con tus perfiles:",
    profiles: "Perfiles",
  },
  chat: {
    intro: "Nuevo documento para «{profile}»",
    shared: "{who} ha compartido un documento",
    published: "Publicado",
  },
  share: {
    subject: "{who} te envía: {title}",
    intro: "{who} ha compartido contigo este documento.",
    message: "Mensaje",
    summary: "Resumen",
  },
};

export type ChannelMessages = typeof channels;
