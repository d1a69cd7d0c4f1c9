/** Spanish: home page sections. */
export const home = {
  intro: {
    eyebrow: "Vigilancia regulatoria para empresas",
    title: "Toda la normativa que afecta a tu empresa, en cuanto se publica",
    lead: "Vigía Normativo vigila sin descanso las fuentes oficiales nacionales y europeas —el BOE, el Diario Oficial de la UE a través de EUR-Lex, los boletines autonómicos y las publicaciones de los reguladores— e identifica, clasifica y hace llegar cada novedad a las personas de tu empresa que deben conocerla, en tiempo real.",
    cta: "Solicita una demostración",
    secondaryCta: "Cómo funciona",
    sourcesLabel: "Algunas de las fuentes que vigilamos",
    sources: ["BOE", "DOUE · EUR-Lex", "Boletines autonómicos", "Banco de España", "CNMV", "AEMPS", "EBA · ESMA"],
    feed: {
      title: "Así llega una alerta",
      note: "Ejemplo ilustrativo",
      deliveredTo: "Enviada a",
      items: [
        {
          source: "BOE",
          time: "07:58",
          title: "Orden ministerial que actualiza los modelos de declaración informativa",
          tags: ["Fiscal", "España"],
          to: "Equipo fiscal",
        },
        {
          source: "EUR-Lex",
          time: "09:15",
          title: "Reglamento delegado sobre información de sostenibilidad de las entidades financieras",
          tags: ["Sostenibilidad", "UE"],
          to: "Cumplimiento y Riesgos",
        },
        {
          source: "CNMV",
          time: "11:40",
          title: "Guía técnica sobre comercialización de productos de inversión complejos",
          tags: ["Mercado de valores"],
          to: "Asesoría jurídica",
        },
      ],
    },
  },
  collaboration: {
    title: "Gestión colaborativa",
    lead: "La normativa no se gestiona en solitario. Cada documento llega con su contexto; tu equipo lo comenta, lo reparte y deja constancia de quién ha hecho qué.",
    features: [
      {
        id: "notes",
        title: "Consulta y anota",
        text: "Lee cada disposición en la plataforma y añade notas internas: qué implica, a quién afecta y qué plazos hay que cumplir.",
      },
      {
        id: "share",
        title: "Comparte con tu equipo",
        text: "Envía un documento por correo electrónico o al canal de chat de tu equipo con un clic, con tus notas incluidas.",
      },
      {
        id: "alerts",
        title: "Alertas a medida",
        text: "Cada persona recibe lo que le toca: alertas segmentadas por perfil, área de negocio o país.",
      },
      {
        id: "groups",
        title: "Grupos por área",
        text: "Los administradores crean grupos por área o departamento y deciden qué materias y fuentes sigue cada uno.",
      },
      {
        id: "trace",
        title: "Trazabilidad completa",
        text: "Queda registrado quién ha leído cada documento, qué acciones se han tomado y qué usuarios han intervenido. Listo para una auditoría o un requerimiento del supervisor.",
      },
      {
        id: "mfa",
        title: "Acceso con doble factor",
        text: "Todas las cuentas entran con autenticación multifactor. Sin excepciones.",
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
        text: "Revisamos de forma continua boletines oficiales, diarios europeos y sedes de los reguladores, en cuanto publican.",
      },
      {
        title: "Identificar",
        text: "Detectamos cada disposición nueva o modificada y extraemos sus datos: órgano emisor, rango, fechas y ámbito territorial.",
      },
      {
        title: "Clasificar",
        text: "La asignamos a materias, sectores y países según la taxonomía de tu organización.",
      },
      {
        title: "Distribuir",
        text: "La entregamos a los grupos y perfiles a los que afecta: en la plataforma, por correo, en el chat del equipo o por API.",
      },
    ],
    pillars: [
      {
        id: "security",
        title: "Seguridad",
        text: "Autenticación multifactor, cifrado en tránsito y en reposo, y permisos por grupo: cada usuario ve lo que le corresponde.",
      },
      {
        id: "traceability",
        title: "Trazabilidad",
        text: "Un registro de actividad con lecturas, acciones y usuarios implicados, exportable para auditorías internas y externas.",
      },
      {
        id: "integrations",
        title: "Integraciones",
        text: "Webhooks y API REST para llevar las alertas a tu intranet, tu gestor documental o tu herramienta de GRC.",
      },
    ],
    codeTitle: "Recibe las alertas en tus sistemas",
    codeText:
      "Registra un webhook con tus filtros y cada novedad que encaje llegará a tu sistema en JSON, en el momento en que la clasifiquemos.",
    codeLabel: "Ejemplo en shell: suscripción a alertas por webhook",
  },
  useCases: {
    title: "Casos de uso",
    lead: "Cada sector tiene sus fuentes y sus urgencias. Estos son algunos ejemplos de lo que vigilamos para nuestros clientes.",
    exampleLabel: "Qué vigilamos",
    items: [
      {
        id: "banking",
        title: "Banca",
        audience: "Cumplimiento, Riesgos y Tecnología",
        example:
          "Circulares del Banco de España, guías de la EBA y normas técnicas de la Comisión sobre solvencia, prevención del blanqueo o resiliencia operativa digital (DORA).",
      },
      {
        id: "pharma",
        title: "Farmacéutica",
        audience: "Asuntos Regulatorios y Acceso al Mercado",
        example:
          "Resoluciones de la AEMPS, decisiones de la Agencia Europea de Medicamentos y órdenes de precios y financiación publicadas en el BOE.",
      },
      {
        id: "law",
        title: "Despachos de abogados",
        audience: "Cada área de práctica",
        example:
          "Toda la producción normativa estatal, autonómica y europea, filtrada por materia para que cada equipo vea lo suyo, lo anote y lo comparta con sus compañeros.",
      },
      {
        id: "automotive",
        title: "Automoción",
        audience: "Ingeniería, Calidad y Relaciones institucionales",
        example:
          "Reglamentos de homologación de la UE, normas de emisiones y convocatorias autonómicas de ayudas a la movilidad eléctrica.",
      },
      {
        id: "tech",
        title: "Tecnología",
        audience: "Legal, Privacidad y Seguridad",
        example:
          "El Reglamento de Inteligencia Artificial, la protección de datos y la ciberseguridad (NIS2): actos delegados, guías de las autoridades y su transposición en España.",
      },
      {
        id: "international",
        title: "Grupos internacionales",
        audience: "Cumplimiento corporativo y filiales",
        example:
          "Una sola vista de la normativa europea y de cada país donde operáis, con alertas por país y filial y constancia de quién ha revisado cada cambio.",
      },
    ],
  },
  contact: { title: "Contacto" },
};
