import { z } from 'zod'
import {
  normalizePostalCode,
  ZIP_CODE_REQUIRED,
  zipCodeProblem,
  zipPlus4Problem,
} from '../constants/fields.ts'
import { PROPERTY_CREATED } from '../constants/options.ts'
import { CANADIAN_PROVINCES, US_STATES } from '../constants/states.ts'
import { InventoryPropertyStatus, PropertyType } from '../enums.ts'
import { Flag, Id, OptionalText, RequiredText, whenValid } from './common.ts'

const Coordinate = (min: number, max: number) =>
  z.coerce
    .number()
    .min(min)
    .max(max)
    .nullish()
    .transform((v) => v ?? null)

export const PROPERTY_COUNTRIES = ['United States', 'Canada'] as const

/** The states (US) or provinces and territories (Canada) a property's state is chosen from: the agent form's lists. */
export function statesOf(country: string): readonly string[] {
  return country === 'Canada' ? CANADIAN_PROVINCES : US_STATES
}

export function stateProblem(country: string, state: string): string | null {
  if (statesOf(country).includes(state)) return null
  return country === 'Canada' ? 'Choose a Canadian province or territory' : 'Choose a US state'
}

/** The fields of the property search form, each on its own (the country-dependent rules follow). */
export const PropertyFields = z.object({
  propertyAddress1: RequiredText('Address', 120),
  propertyAddress2: OptionalText(120),
  propertyCity: RequiredText('City', 80),
  propertyState: RequiredText('State', 80),
  propertyCounty: RequiredText('County', 80),
  propertyZipCode: z
    .union([z.string(), z.number()], { error: ZIP_CODE_REQUIRED })
    .transform((v) => normalizePostalCode(String(v)))
    .refine((v) => v !== '', { error: ZIP_CODE_REQUIRED }),
  propertyZipPlus4: OptionalText(10),
  propertyCountry: z.enum(PROPERTY_COUNTRIES, { error: 'Country must be United States or Canada' }),
  propertyLatitude: Coordinate(-90, 90),
  propertyLongitude: Coordinate(-180, 180),
  propertyType: PropertyType,
})

type AddressParts = {
  propertyCountry: string
  propertyState: string
  propertyZipCode: string
  propertyZipPlus4?: string | null
}

/**
 * The rules that depend on the country: a US zip is 5 digits from 10000 to 99999 with an optional 4-digit
 * Zip+4, a Canadian postal code reads A1A 1A1 and has no Zip+4; the state comes from the country's list.
 */
export function addressProblems(p: AddressParts): { field: keyof AddressParts; message: string }[] {
  const problems: { field: keyof AddressParts; message: string }[] = []
  const zip = p.propertyZipCode === '' ? null : zipCodeProblem(p.propertyCountry, p.propertyZipCode)
  if (zip) problems.push({ field: 'propertyZipCode', message: zip })
  const plus4 = zipPlus4Problem(p.propertyCountry, p.propertyZipPlus4)
  if (plus4) problems.push({ field: 'propertyZipPlus4', message: plus4 })
  const state = p.propertyState === '' ? null : stateProblem(p.propertyCountry, p.propertyState)
  if (state) problems.push({ field: 'propertyState', message: state })
  return problems
}

const ADDRESS_PARTS = ['propertyCountry', 'propertyState', 'propertyZipCode', 'propertyZipPlus4']

/** The property search form of SPEC §3/§5 (address autocomplete fills it; manual entry always works). */
export const PropertyBody = PropertyFields.superRefine(
  (p, ctx) => {
    for (const { field, message } of addressProblems(p))
      ctx.addIssue({ code: 'custom', path: [field], message })
  },
  whenValid(...ADDRESS_PARTS),
)
export type PropertyBody = z.input<typeof PropertyBody>

export const Property = z.object({
  id: z.number().int(),
  propertyAddress1: z.string(),
  propertyAddress2: z.string().nullable(),
  propertyCity: z.string(),
  propertyState: z.string(),
  propertyCounty: z.string().nullable(),
  propertyZipCode: z.string(),
  propertyZipPlus4: z.string().nullable(),
  propertyCountry: z.string(),
  propertyLatitude: z.number().nullable(),
  propertyLongitude: z.number().nullable(),
  propertyType: z.string(),
  completePropertyAddress: z.string(),
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type Property = z.infer<typeof Property>

export const SaveInventoryBody = z.object({
  owningREAgentId: Id,
  rePropertyDTO: PropertyBody,
  reInventoryPropertyStatus: InventoryPropertyStatus,
  reInventoryPropertyDeleteFlag: Flag.optional(),
})
export type SaveInventoryBody = z.input<typeof SaveInventoryBody>

/**
 * The status, and while no open house is scheduled for it, corrections to the address: the fields sent
 * replace the saved ones and the whole address must then pass PropertyBody's rules.
 */
export const UpdateInventoryBody = z.object({
  reInventoryPropertyStatus: InventoryPropertyStatus,
  rePropertyDTO: PropertyFields.partial().optional(),
})
export type UpdateInventoryBody = z.input<typeof UpdateInventoryBody>

/**
 * The inventory's open-house status (SPEC §3/§4), read from its open houses: 'Property Created' while none
 * is upcoming (not canceled, not over), which permits Delete; otherwise 'Open House Scheduled', which
 * disables it. Schedule Open House stays on: a property may hold a Saturday and a Sunday (issue 32), one
 * open house per date.
 */
export const OPEN_HOUSE_SCHEDULED = 'Open House Scheduled'
export const INVENTORY_OPEN_HOUSE_STATUSES = [PROPERTY_CREATED, OPEN_HOUSE_SCHEDULED] as const
export const UPCOMING_OPEN_HOUSE_REASON =
  'This property has an upcoming open house: it can be deleted once that open house is over or canceled.'
export const ADDRESS_LOCKED_REASON =
  'The address cannot be changed while an open house is scheduled for this property.'

export const InventoryItem = z.object({
  id: z.number().int(),
  owningREAgentId: z.number().int(),
  reProperty: Property,
  reInventoryPropertyStatus: z.string(),
  reInventoryOpenHouseStatus: z.enum(INVENTORY_OPEN_HOUSE_STATUSES),
  reInventoryPropertyDeleteFlag: z.boolean(),
  createdDate: z.string(),
  updatedDate: z.string(),
})
export type InventoryItem = z.infer<typeof InventoryItem>

/** One line an address is known by: "12 Porch Lane, Apt 2, Roswell, Georgia 30075-1234, United States". */
export function completeAddress(p: {
  propertyAddress1: string
  propertyAddress2?: string | null
  propertyCity: string
  propertyState: string
  propertyZipCode: string
  propertyZipPlus4?: string | null
  propertyCountry: string
}): string {
  const zip = p.propertyZipPlus4 ? `${p.propertyZipCode}-${p.propertyZipPlus4}` : p.propertyZipCode
  return [
    p.propertyAddress1,
    p.propertyAddress2,
    p.propertyCity,
    `${p.propertyState} ${zip}`,
    p.propertyCountry,
  ]
    .filter(Boolean)
    .join(', ')
}

/** A geocoder suggestion, already shaped as the property form's fields. */
export const AddressSuggestion = z.object({
  label: z.string(),
  propertyAddress1: z.string(),
  propertyAddress2: z.string().nullable(),
  propertyCity: z.string(),
  propertyState: z.string(),
  propertyCounty: z.string(),
  propertyZipCode: z.string(),
  propertyZipPlus4: z.string().nullable(),
  propertyCountry: z.enum(['United States', 'Canada']),
  propertyLatitude: z.number().nullable(),
  propertyLongitude: z.number().nullable(),
})
export type AddressSuggestion = z.infer<typeof AddressSuggestion>
