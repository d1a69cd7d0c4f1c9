/** The webhooks admin page (/app/admin/webhooks) in Spanish: the source of truth for ../en/webhooks.ts. */
export const webhooks = {
  nav: "Webhooks",
  title: "Webhooks",
  lead: "Tu organización puede recibir sus eventos en un servidor propio: cada envío va firmado (Standard Webhooks) y se reintenta durante 24 horas si tu servidor no responde.",
  create: {
    title: "Nuevo webhook",
    url: "URL de destino",
    urlHint: "Una dirección https pública de tu servidor, por ejemplo https://example.com/webhooks/vigia.",
    events: "Eventos que recibe",
    eventsHint: "Elige al menos uno.",
    submit: "Crear webhook",
    internal:
      "{host} es una dirección interna (de esta máquina o de una red privada): por seguridad, los webhooks solo se envían a direcciones públicas.",
    url_invalid: "Escribe una URL completa que empiece por https:// o http://.",
    events_invalid: "Elige al menos un evento.",
  },
  secret: {
    title: "Webhook creado. Guarda ahora su secreto de firma:",
    once: "No volverás a verlo. Con él tu servidor comprueba que cada envío viene de nosotros.",
  },
  list: {
    title: "Webhooks de la organización",
    empty: "Aún no hay ningún webhook.",
    events: "Eventos",
    created: "Creado",
    status: "Estado",
  },
  statuses: {
    active: "Activo",
    disabled: "Desactivado",
    failing: "Con fallos",
  },
  failing:
    "Con fallos desde {since}: un envío agotó sus 24 horas de reintentos ({error}). Los envíos nuevos quedan retenidos hasta que lo reanudes.",
  disabledSince: "Desactivado desde {since}: no recibe eventos nuevos.",
  actions: {
    test: "Enviar prueba",
    disable: "Desactivar",
    enable: "Activar",
    resume: "Reanudar",
    delete: "Eliminar…",
    deleteConfirm: "Sí, eliminar este webhook",
    deleteWarning: "Se eliminarán el webhook y sus envíos pendientes. No se puede deshacer.",
  },
  done: {
    created: "Webhook creado.",
    disabled: "Webhook desactivado: sus envíos pendientes quedan retenidos.",
    enabled: "Webhook activo. Envíos que vuelven a la cola: {count}.",
    deleted: "Webhook eliminado.",
    testSent: "Prueba recibida: tu servidor respondió con éxito (webhook-id {id}).",
    testFailed: "La prueba no llegó: {error}.",
    testPending: "La prueba sigue en curso; mira su estado en los envíos recientes.",
    notFound: "Ese webhook ya no existe.",
    limit: "Tu organización ya tiene el máximo de webhooks.",
  },
  deliveries: {
    title: "Envíos recientes",
    empty: "Todavía no hay envíos.",
    event: "Evento",
    status: "Estado",
    attempts: "Intentos",
    next: "Siguiente intento",
    error: "Último error",
    created: "Creado",
    statuses: {
      pending: "Pendiente",
      sending: "Enviando",
      sent: "Entregado",
      dead: "Agotado",
      held: "Retenido",
    },
    test: "Prueba",
  },
  /** Event names in words; a type not listed here is shown by its code. */
  eventNames: {
    "document.matched": "Un documento coincide con los filtros del webhook",
    "law.changed": "Cambia una ley que sigue tu organización",
    "document.triaged": "Cambia el triaje de un documento",
    "obligation.created": "Se registra una obligación",
    "obligation.updated": "Cambia una obligación",
    "obligation.review_needed": "Una obligación necesita revisión",
  } as Record<string, string>,
};

export type WebhooksMessages = typeof webhooks;
