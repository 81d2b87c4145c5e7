/**
 * The lowest plan price, which the landing page quotes ('plans from $9.99 a month'). Its own
 * module so the landing page can quote it without the whole catalogue; the Starter plan in the
 * catalogue is priced from it, so the two cannot disagree.
 */
export const PLANS_FROM_CENTS = 999;
