/** Spanish: the contact section and its form. */
export const contact = {};
