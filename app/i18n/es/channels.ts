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
    subject: { one: "Resumen del {day}: {count} documento", other: "Resumen del {day}: {count} documentos" },
    intro: "Documentos del {day} que coinciden con tus perfiles:",
    profiles: "Perfiles",
    subjectDeadline: { one: "Resumen del {day}: {count} plazo", other: "Resumen del {day}: {count} plazos" },
    deadlines: "Tus plazos vencidos o próximos:",
    decision: "Decidir si aplica «{title}»",
    obligation: "Obligación «{title}» (de «{document}»)",
    overdue: "venció el {date}",
    dueToday: "vence hoy",
    dueOn: "vence el {date}",
  },
  chat: {
    intro: "Nuevo documento para «{profile}»",
    shared: "{who} ha compartido un documento",
    published: "Publicado",
  },
  webhookInput: {
    url: "La URL debe ser http(s) y pública.",
    area: "Área desconocida.",
    jurisdiction: "Jurisdicción desconocida.",
    kind: "Tipo de documento desconocido.",
    source: "Fuente desconocida.",
    relevance: "Relevancia no válida: high, medium o low.",
    q: "La búsqueda admite hasta 500 caracteres.",
    events: "Eventos no válidos: elige al menos uno entre {types}.",
  },
  share: {
    subject: "{who} te envía: {title}",
    intro: "{who} ha compartido contigo este documento.",
    message: "Mensaje",
    summary: "Resumen",
  },
};

export type ChannelMessages = typeof channels;
