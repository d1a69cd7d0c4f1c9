/** Spanish: home page sections. */
export const home = {
  intro: { title: "Vigilancia regulatoria en tiempo real" },
  collaboration: { title: "Gestión colaborativa" },
  architecture: { title: "Arquitectura y tecnología" },
  useCases: { title: "Casos de uso" },
  contact: { title: "Contacto" },
};
