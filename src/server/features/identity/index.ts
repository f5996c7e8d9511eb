/**
 * The identity feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { ACCOUNT_MAIL_LIMITS, sendCappedMail } from './account-mail';
export { appAuth } from './app-auth';
export {
  createAccountWithoutPassword,
  createAuth,
  EMAIL_VERIFICATION_SECONDS,
  issueSignInToken,
  SIGN_IN_LINK_SECONDS,
  signInUnconfirmed,
  signInWithoutMail,
  type Auth,
} from './auth';
export { endpoint, type EndpointContext } from './endpoint';
export { gatedEndpoint, isAdmin, type GatedContext } from './gated-endpoint';
export { isOidcProviderId } from './oidc-providers';
export { userFromHeaders, type AppUser, type ViewerOption } from './session-user';
export { getUser, isStaff, requireAdmin, requireStaff, sessionUser } from './session';
export {
  clearSentMailCookie,
  RESENT_PAGE,
  SENT_PAGE,
  sentMailCookie,
  sentMailOf,
} from './sign-up-sent';
export { removeUnfinishedSignUp, withSignUpConsent } from './unfinished-sign-up';
export {
  changeEmailInput,
  deleteAccountInput,
  DISPLAY_NAME_MAX,
  emailField,
  forgotPasswordInput,
  nameFromAddress,
  passwordProblem,
  profileInput,
  resetPasswordInput,
  setPasswordInput,
  signInInput,
  signUpInput,
} from './validation';
