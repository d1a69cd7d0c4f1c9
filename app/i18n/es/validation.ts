/**
 * Validation messages of the inputs the page catalogs do not cover (alert profiles, the webhook
 * cap, feeds, the platform's sign-in forms, API tokens, triage and obligations), in Spanish (tú):
 * the source of truth for ../en/validation.ts.
 */
export const validation = {
  profile: {
    name: "Escribe un nombre (máximo 120 caracteres).",
    area: "Área desconocida.",
    jurisdiction: "Jurisdicción desconocida.",
    kind: "Tipo de documento desconocido.",
    source: "Fuente desconocida.",
    relevance: "Relevancia no válida: high, medium o low.",
    keyword: "Cada palabra clave debe tener entre 2 y 80 caracteres.",
    email: "Modo de correo no válido: off, immediate o digest.",
    hour: "La hora debe estar entre 0 y 23.",
    timeZone: "Zona horaria desconocida.",
    chatUrl: "La URL del chat debe ser https de Slack o Microsoft Teams.",
    language: "Idioma no válido: es o en.",
    owner: "El perfil pertenece a un usuario o a un grupo, no a ambos.",
    chatGroupOnly: "Solo los perfiles de grupo envían al chat del grupo.",
  },
  webhookLimit: "Tu organización ya tiene {limit} webhooks, el máximo permitido. Borra uno antes de crear otro.",
  feed: {
    url: "Escribe la dirección pública completa del feed, que empiece por https:// o http://.",
    name: "Escribe un nombre de 1 a 120 caracteres.",
  },
  auth: {
    required: "Este campo es obligatorio.",
    email: "Escribe una dirección de correo válida.",
    name: "Escribe un nombre de 1 a 120 caracteres.",
    password: "La contraseña debe tener entre 12 y 256 caracteres.",
    code: "Escribe el código de 6 cifras de tu aplicación.",
    recovery: "Escribe uno de tus códigos de recuperación.",
    role: "Elige un rol.",
    locale: "Elige un idioma.",
  },
  apiToken: {
    name: "Escribe un nombre de 1 a {max} caracteres",
    scope: "Elige lectura o administración",
    expiresAt: "La caducidad debe ser una fecha posterior a hoy (AAAA-MM-DD)",
  },
  triage: {
    status: "Elige un estado de la lista.",
    assignee: "Elige una persona o un grupo de tu organización.",
    dueOn: "Escribe la fecha como AAAA-MM-DD.",
    impact: "Elige un impacto: alto, medio o bajo.",
    rationale: "Escribe la justificación en 2000 caracteres como mucho.",
    note: "Escribe la nota en 500 caracteres como mucho.",
    nothing: "No has cambiado nada.",
    rows: "Marca al menos un documento de la lista.",
    bulkField: "Elige qué quieres cambiar en los documentos marcados.",
    notApplies: "Solo puedes registrar obligaciones en un documento marcado como «aplica».",
    anchor: "Elige el párrafo del texto donde está la obligación.",
    block: "Elige un artículo de la ley donde está la obligación.",
    version: "Elige una versión de ese artículo.",
    decision: "Elige una decisión: sigue aplicando, ha cambiado o ya no aplica.",
    reviewText: "Escribe el nuevo texto en 2000 caracteres como mucho.",
    noReview: "Esta obligación no tiene ninguna revisión pendiente.",
    title: "Escribe un título de 3 a 200 caracteres.",
    description: "Escribe la descripción en 2000 caracteres como mucho.",
    reference: "Escribe la referencia en 200 caracteres como mucho.",
    obligationStatus: "Elige un estado de la obligación.",
    hour: "Elige una hora entre 0 y 23.",
    daysBefore: "Elige entre 0 y 60 días.",
  },
};

export type ValidationMessages = typeof validation;
