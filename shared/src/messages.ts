// The texts the user sees, word for word from SPEC §1, §2, §4, §5 and §8 — their spelling and
// punctuation included ('suppor', 'atleast', 'withdrew', 'to you email Id' are the SPEC's).
// API errors answer these as `message` where SPEC §8 has a text for the case (API.md).

export const messages = {
  // §1, §6: license gate for Dashboard, Open Houses and My Stuff
  licenseNotValid:
    'Your license is not valid. Please get in touch with suppor team for verification and account reactivation.',

  // §2 session, sign-in success, plan gate, password change
  sessionExpired: 'Your Session Expired. Please sign in again!',
  signedInSuccessfully: 'You signed in successfully!',
  emailIdValidatedSuccessfully: 'Your email Id validated successfully!',
  upgradePlanToCreateOpenHouses: 'Upgrade your plan to create more open houses',
  passwordChangedSuccessfully:
    'Your password changed successfully. Please sign in with new password next time',

  // §5 validation warnings
  emailIdNotValid: 'Email Id Not Valid',
  recommendedPasswordLength: 'Recommended Password atleast 8 characters long!',
  passwordNotMatching: 'Password is not matching!',

  // §5 confirmations
  confirmRemoveTeamMember: 'Are you sure to remove from team?',
  confirmAddPricingPlan: 'Are you sure to add this Pricing Plan?',

  // §8 agents, profiles and sign-up
  profileSaveFailed: "Couldn't save the profile!",
  emailIdAlreadyExists: 'Email Id already exists! Please try with different email or reset the password.',

  // §8 open houses
  claimFailed: "Couldn't claim the Open House Opportunity!",
  addAttendeeFailed: "Couldn't save the profile!",
  openHouseAlreadyScheduled: 'Open House is already scheduled for this property and date!',
  cancelOpenHouseFailed: "Couldn't cancel the Open House!",
  cancelReasonSaveFailed: 'Error in saving cancellation reason. Please try again',
  scheduleUpdateFailed: "Couldn't update the scheduled time for this open house!",

  // §8 feedback
  feedbackSaveFailed: "Couldn't save the feedback!",
  feedbackSummaryLoadFailed: "Couldn't load feedback summary!",

  // §8 prospects, properties, inventory (feedback save with no data also shows propertySaveFailed)
  propertySaveFailed: 'Error in Saving the property details.',
  inventoryUpdateFailed: 'Error in Updating the property status.',
  inventoryDeleteFailed: 'Error in deleting the property from inventory. Please try again later.',

  // Not in SPEC §8 (it has no text for the publish limit); worded like its other plan-limit texts.
  publishLimitReached:
    'You have reached the limit of publishing open houses as per your plan. Please upgrade your plan to publish more open houses.',

  // §8 teams
  teamSaveFailed:
    'Error in Saving the Team details. Team with this team type may already created by team lead or co-lead!',
  alreadyTeamMember: 'This real estate agent already part of the team.',

  // §8 email validation and sign-in
  validationCodeNotValid: 'Validation Code is not valid or already validated it',
  incorrectEmailAndPassword: 'Incorrect Email and Password! Try Again!',
  noAccountWithEmail: 'There is no associated account with this email Id. Please sign up!',
  authenticatingUserFailed: 'Error in authenticating the user!',
  // Not in SPEC §8: the account's password door after too many wrong passwords (decision 032).
  signInPaused:
    'Too many wrong passwords for this account: sign-in with a password is paused for a while. Use Forgot Password? to get a temporary password by email; it signs you in right away.',

  // §8 forgot and change password
  passwordResetFailed: "Your password didn't reset successfully. Try Again!",
  resettingPasswordFailed: 'Error in resetting the user password!',
  changingPasswordFailed: 'Error in changing the password!',
  authenticatingUserDetailsFailed: 'Error in authenticating the user details!',

  // §8 pricing plans and plan limits
  pricingPlansLoadFailed: 'Error in getting the offered Pricing Plans!',
  teamLimitReached:
    'You have reached the limit of creating teams as per your plan. Please upgrade your plan to create more teams.',
  openHouseLimitReached:
    'You have reached the limit of scheduling open houses as per your plan. Please upgrade your plan to schedule more open houses.',
  teamMemberLimitReached:
    'You have reached the limit of adding team members as per your plan. Please upgrade your plan to add more team members.',

  // §8 success alerts
  openHouseWithdrawn: 'Open House withdrew Successfully!',
  openHouseClaimed: 'Open House Claimed Successfully!',
  hostingReportSent: 'Open House Hosting Report sent successfully!',
  hostingReportRequested: 'Open House Hosting Report request successfully!',
  attendeeReportSent: 'Attendee Report sent to you email Id successfully.',
  propertyDeletedFromInventory: 'Property deleted from inventory successfully.',

  // §8 maps, tables and router defaults
  mapAuthFailure: 'Error: AuthFailure',
  noRecordsToDisplay: 'There are no records to display',
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  badRequest: 'Bad Request',
  forbidden: 'Forbidden',

  // Who may act for whom (not in SPEC; worded like its siblings)
  scheduleFixed:
    'This open house has a fixed date and time set by the listing agent. Claim it as scheduled instead.',
  firmNotVerified:
    'Your membership of this broker firm is not verified yet. A verified Team Lead or Admin Team Member of your firm can approve it.',
  firmDecisionTaken:
    'Someone else has just decided on this membership. Refresh to see where it stands before deciding again.',
  firmDecisionSame: "This agent's membership already stands so.",
  lastTeamLead:
    'Your firm must keep at least one verified Team Lead. Grant Team Lead to another verified member first, or ask the Porchlight team.',
  roleAlreadyHeld: 'This agent already holds that role.',
  firmVerificationRequested:
    'We asked the Porchlight team to verify your firm membership. You will get a mail when it is done.',
  firmVerificationAskedToday:
    'You asked the Porchlight team today already. Your request is with them; you can ask again tomorrow.',
  firmAlreadyVerified: 'Your firm membership is verified already.',
  roleNeedsVerifiedMember: "Approve the agent's firm membership before granting it a role.",
  roleNeedsLicense: 'A Team Lead needs a license number on its profile.',
  onlyTeamLeadGrants: 'Only a verified Team Lead of this firm may grant or revoke roles.',
  propertyNotInInventory: "Choose a property from the listing agent's inventory.",
  teamMemberNotVerified: "Choose a verified agent of the team lead's broker firm.",
  guestTokenInvalid:
    "Couldn't save the feedback! Please sign in at the open house again on this phone to leave feedback.",
} as const

export type MessageKey = keyof typeof messages
