/**
 * What the server itself writes (the API's error answers, the validation of notes, shares, topics
 * and corrections, the document page's field wording, the platform's mails): Spanish, the source
 * of truth for en/server.ts. Read through app/i18n/server-messages.ts. `{name}` marks a value.
 */
export const serverMessages = {
  api: {
    400: "Petición mal formada",
    401: "Falta el token de acceso o no es válido",
    403: "El token no tiene permiso para esta operación",
    404: "No encontrado",
    405: "Método no permitido",
    413: "El cuerpo de la petición es demasiado grande",
    415: "Tipo de contenido no admitido",
    422: "Algunos parámetros no son válidos",
    429: "Demasiadas peticiones; inténtalo de nuevo más tarde",
    500: "Error interno del servidor",
    503: "Servicio no disponible",
  },
  notes: {
    body: "Escribe la nota (máximo 10.000 caracteres).",
    visibility: "Visibilidad no válida: private, group u organization.",
    group: "Elige uno de tus grupos para una nota de grupo.",
    paragraph: "Párrafo no válido.",
  },
  sharing: {
    recipients: "Indica entre 1 y 20 direcciones de correo válidas.",
    message: "El mensaje admite hasta 2.000 caracteres.",
  },
  /** The document page's own wording of the note and share fields. */
  documentForms: {
    body: "Escribe la nota (máximo 10.000 caracteres).",
    visibility: "Elige quién la ve: solo tú, tu grupo o toda la organización.",
    groupId: "Elige uno de tus grupos para una nota de grupo.",
    paragraph: "Escribe el número de un párrafo del texto, o déjalo vacío.",
    recipients: "Escribe entre 1 y 20 direcciones de correo válidas, separadas por comas.",
    message: "El mensaje admite hasta 2.000 caracteres.",
  },
  topics: {
    name: "Escribe un nombre de 1 a 80 caracteres.",
    keywords: "Escribe entre 1 y {max} palabras o frases, una por línea, de 2 a 80 caracteres cada una.",
    area: "Elige un área de la lista.",
  },
  corrections: {
    area: "Elige un área de la lista.",
    action: "Elige si el área sobra o falta.",
    reason: "Explica el motivo en 3 a 500 caracteres.",
    alreadyHas: "El documento ya tiene esa área.",
    doesNotHave: "El documento no tiene esa área.",
  },
  mails: {
    roles: { owner: "propietario", admin: "administrador", member: "miembro" } as Record<string, string>,
    invitation: {
      subject: "Invitación a {organization} en Vigía Normativo",
      someone: "Un administrador",
      invites: "{inviter} te invita a {organization} en Vigía Normativo (rol: {role}).",
      next: "Abre el enlace para indicar tu nombre y tu contraseña y configurar un segundo factor. El enlace es válido durante 7 días y solo puede usarse una vez.",
      unexpected: "Si no esperabas esta invitación, ignora este correo.",
      link: "Aceptar la invitación",
    },
    passwordReset: {
      subject: "Restablece tu contraseña de Vigía Normativo",
      asked: "Se ha pedido restablecer la contraseña de tu cuenta de Vigía Normativo.",
      validity:
        "El enlace es válido durante una hora y solo puede usarse una vez. Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.",
      link: "Elegir una contraseña nueva",
    },
    newDevice: {
      subject: "Nuevo inicio de sesión en Vigía Normativo",
      signedIn: "Se ha iniciado sesión en tu cuenta de Vigía Normativo desde un dispositivo nuevo el {when} UTC.",
      device: "Dispositivo: {device}. Dirección IP: {ip}.",
      unknownDevice: "desconocido",
      notYou: "Si no has sido tú, cierra esa sesión y cambia tu contraseña.",
      link: "Revisar mis sesiones",
    },
  },
};

export type ServerMessages = typeof serverMessages;
