/** Spanish: home page sections. */
export const home = {
  intro: {
    eyebrow: "Vigilancia regulatoria para empresas",
    title: "Toda la normativa que afecta a tu empresa, minutos después de publicarse",
    lead: "Vigía Normativo vigila las fuentes oficiales españolas y europeas —el BOE (incluidas las leyes autonómicas que publica), el Diario Oficial de la UE a través de EUR-Lex y los canales RSS de los supervisores que elijas— e identifica, clasifica y hace llegar cada novedad a las personas de tu empresa que deben conocerla, en tiempo real.",
    cta: "Solicita una demo",
    secondaryCta: "Cómo funciona",
    sourcesLabel: "Fuentes: el BOE, el DOUE y los canales RSS de los supervisores que elijas, por ejemplo",
    sources: ["BOE", "DOUE · EUR-Lex", "Banco de España (RSS)", "CNMV (RSS)", "AEMPS (RSS)", "EBA · ESMA (RSS)"],
    feed: {
      title: "Así llega una alerta",
      note: "Ejemplo ilustrativo",
      deliveredTo: "Enviada a",
      items: [
        {
          source: "BOE",
          time: "07:58",
          title: "Orden ministerial que actualiza los modelos de declaración informativa",
          tags: ["Fiscal", "España (Estado)"],
          to: "Equipo fiscal",
        },
        {
          source: "EUR-Lex",
          time: "09:15",
          title: "Reglamento delegado sobre información de sostenibilidad de las entidades financieras",
          tags: ["Sostenibilidad e información no financiera", "Unión Europea"],
          to: "Cumplimiento y Riesgos",
        },
        {
          source: "CNMV",
          time: "11:40",
          title: "Guía técnica sobre comercialización de productos de inversión complejos",
          tags: ["Mercado de valores e inversión", "España (Estado)"],
          to: "Asesoría jurídica",
        },
      ],
    },
  },
  collaboration: {
    title: "Gestión colaborativa",
    lead: "La normativa no se gestiona en solitario. Cada documento llega con su contexto; tu equipo lo comenta, lo comparte y deja constancia de quién ha hecho qué.",
    features: [
      {
        id: "notes",
        title: "Consulta y anota",
        text: "Lee el texto completo de cada disposición del BOE y de la UE en la plataforma y añade notas internas, privadas, para tu grupo o para toda la organización: qué implica, a quién afecta y qué plazos hay que cumplir.",
      },
      {
        id: "share",
        title: "Comparte con tu equipo",
        text: "Envía un documento por correo, a compañeros o a destinatarios externos, o al canal de Slack o Microsoft Teams de tu grupo, con un mensaje. Tus notas internas nunca salen de la organización.",
      },
      {
        id: "alerts",
        title: "Alertas a medida",
        text: "Cada persona recibe solo lo que le afecta: alertas por perfil, materia y territorio (UE, Estado o comunidad autónoma), con la relevancia mínima que elijas, al momento o en un resumen diario.",
      },
      {
        id: "groups",
        title: "Grupos por área o departamento",
        text: "Los administradores crean grupos por área o departamento y deciden qué materias y fuentes sigue cada uno.",
      },
      {
        id: "trace",
        title: "Trazabilidad completa",
        text: "Queda registrado quién ha leído cada documento y qué ha hecho cada usuario en la plataforma, en un registro encadenado a prueba de manipulaciones. Preparado para una auditoría o un requerimiento del supervisor.",
      },
      {
        id: "mfa",
        title: "Acceso con doble factor",
        text: "Todos los usuarios acceden con un segundo factor obligatorio: código TOTP o llave de acceso (passkey). Sin excepciones.",
      },
    ],
  },
  architecture: {
    title: "Arquitectura y tecnología",
    lead: "Un flujo continuo, de la fuente oficial a la bandeja de la persona adecuada, en cuatro pasos.",
    stepsLabel: "Cómo funciona",
    steps: [
      {
        title: "Vigilar",
        text: "Consultamos el BOE y el Diario Oficial de la UE cada pocos minutos en su horario de publicación, y los canales RSS de los supervisores que configures.",
      },
      {
        title: "Identificar",
        text: "Detectamos cada disposición nueva o modificada y extraemos sus datos: órgano emisor, rango, fechas, ámbito territorial y sus relaciones con normas anteriores (modifica, deroga).",
      },
      {
        title: "Clasificar",
        text: "La clasificamos por materia, territorio (UE, Estado o comunidad autónoma), tipo de norma y relevancia, y te decimos por qué lleva cada etiqueta. Puedes añadir tus propios temas con palabras clave.",
      },
      {
        title: "Distribuir",
        text: "La entregamos a los grupos y perfiles a los que afecta: en la plataforma, por correo (al momento o en un resumen diario), en Slack o Microsoft Teams, o por API.",
      },
    ],
    pillars: [
      {
        id: "security",
        title: "Seguridad",
        text: "Segundo factor obligatorio (TOTP o passkey), sesiones revocables, contraseñas protegidas con una función de derivación costosa, roles (propietario, administrador, miembro) y aislamiento total entre organizaciones.",
      },
      {
        id: "traceability",
        title: "Trazabilidad",
        text: "Un registro de actividad con lecturas, acciones y usuarios implicados, encadenado y verificable, exportable en CSV o JSON para auditorías internas y externas.",
      },
      {
        id: "integrations",
        title: "Integraciones",
        text: "Webhooks firmados y una API REST documentada en OpenAPI para llevar las alertas a tu intranet, tu gestor documental o tu herramienta de GRC.",
      },
    ],
    codeTitle: "Recibe las alertas en tus sistemas",
    codeText:
      "Registra un webhook con tus filtros y cada novedad que encaje llegará a tu sistema en un JSON firmado, en cuanto la clasifiquemos.",
    codeLabel: "Ejemplo en shell: suscripción a alertas por webhook",
  },
  useCases: {
    title: "Casos de uso",
    lead: "Cada sector tiene sus fuentes y sus urgencias. Estos son algunos ejemplos de lo que vigila Vigía Normativo en cada uno.",
    exampleLabel: "Qué vigilamos",
    items: [
      {
        id: "banking",
        title: "Banca",
        audience: "Cumplimiento, Riesgos y Tecnología",
        example:
          "Circulares del Banco de España, directrices de la EBA y normas técnicas de la Comisión sobre solvencia, prevención del blanqueo o resiliencia operativa digital (DORA).",
      },
      {
        id: "pharma",
        title: "Farmacéutica",
        audience: "Asuntos regulatorios y Acceso al mercado",
        example:
          "Resoluciones de la AEMPS, actos de la UE sobre medicamentos y productos sanitarios y órdenes de precios de referencia publicadas en el BOE.",
      },
      {
        id: "law",
        title: "Despachos de abogados",
        audience: "Cada área de práctica",
        example:
          "Toda la normativa estatal y europea, y las leyes autonómicas publicadas en el BOE, filtrada por materia para que cada equipo vea lo suyo, lo anote y lo comparta con sus compañeros.",
      },
      {
        id: "automotive",
        title: "Automoción",
        audience: "Ingeniería, Calidad y Relaciones institucionales",
        example:
          "Reglamentos de homologación de la UE, normas de emisiones y convocatorias de ayudas a la movilidad eléctrica publicadas en el BOE.",
      },
      {
        id: "tech",
        title: "Tecnología",
        audience: "Legal, Privacidad y Seguridad",
        example:
          "El Reglamento de Inteligencia Artificial, la protección de datos y la ciberseguridad (NIS2): actos delegados y de ejecución, guías de las autoridades y las normas españolas que los desarrollan o transponen.",
      },
      {
        id: "international",
        title: "Grupos internacionales",
        audience: "Cumplimiento corporativo y Filiales",
        example:
          "La normativa de la UE y de España en una sola vista, con grupos por filial y constancia de quién ha leído cada novedad.",
      },
    ],
  },
  contact: { title: "Contacto" },
};
