/** Spanish: legal notice, privacy policy and login information pages. */
export const legal = {};
