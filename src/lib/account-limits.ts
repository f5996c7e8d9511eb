/** Limits of the account fields, shared by the server's rules and the forms' browser hints. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const DISPLAY_NAME_MAX = 50;
/** RFC 5321: 254 characters for the whole address. */
export const EMAIL_MAX = 254;
export const COMPANY_MAX = 100;
