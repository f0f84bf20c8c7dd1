import { z } from 'zod'
import { POSTAL_CODE_PATTERN } from '../constants/fields.ts'
import { InventoryPropertyStatus, PropertyType } from '../enums.ts'
import { Flag, Id, OptionalText, RequiredText } from './common.ts'

const Coordinate = (min: number, max: number) =>
  z.coerce
    .number()
    .min(min)
    .max(max)
    .nullish()
    .transform((v) => v ?? null)

/** The property search form of SPEC §3/§5 (address autocomplete fills it; manual entry always works). */
export const PropertyBody = z.object({
  propertyAddress1: RequiredText('Address', 120),
  propertyAddress2: OptionalText(120),
  propertyCity: RequiredText('City', 80),
  propertyState: RequiredText('State', 80),
  propertyCounty: RequiredText('County', 80),
  propertyZipCode: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => POSTAL_CODE_PATTERN.test(v), { error: 'Zip code is required' }),
  propertyZipPlus4: OptionalText(4),
  propertyCountry: z.enum(['United States', 'Canada'], { error: 'Country must be United States or Canada' }),
  propertyLatitude: Coordinate(-90, 90),
  propertyLongitude: Coordinate(-180, 180),
  propertyType: PropertyType,
})
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

export const UpdateInventoryBody = z.object({
  reInventoryPropertyStatus: InventoryPropertyStatus,
  rePropertyDTO: PropertyBody.partial().optional(),
})
export type UpdateInventoryBody = z.input<typeof UpdateInventoryBody>

export const InventoryItem = z.object({
  id: z.number().int(),
  owningREAgentId: z.number().int(),
  reProperty: Property,
  reInventoryPropertyStatus: z.string(),
  reInventoryOpenHouseStatus: z.string().nullable(),
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
