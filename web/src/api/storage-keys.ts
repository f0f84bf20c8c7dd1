/** SPEC §3 "Client storage": the four keys the web keeps between page loads (zod-free, for the guest app too). */
export const TOKEN_KEY = 'porchlightUserToken' // localStorage
export const LOGGED_IN_PROFILE_KEY = 'porchlightLoggedInProfile' // localStorage, JSON
export const PRE_LOGIN_PROFILE_KEY = 'porchlightPreLoginProfile' // sessionStorage
export const PRICING_PLAN_KEY = 'porchlightPricingPlan' // sessionStorage
