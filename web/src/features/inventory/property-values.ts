import {
  type AddressSuggestion,
  addressProblems,
  type Property,
  PropertyBody,
  whenValid,
} from '@porchlight/shared'
import { z } from 'zod'
import { ApiError } from '../../api/client.ts'

/** The property search form of SPEC §3, by its field names, as typed. */
export type PropertyFormValues = {
  address1: string
  address2: string
  city: string
  stateLong: string
  county: string
  zipCode: string
  zipPlus4: string
  country: string
  latitude: string
  longitude: string
  propertyType: string
}

/** Form field → API field (PropertyBody, the server's own schema). */
const API_FIELD = {
  address1: 'propertyAddress1',
  address2: 'propertyAddress2',
  city: 'propertyCity',
  stateLong: 'propertyState',
  county: 'propertyCounty',
  zipCode: 'propertyZipCode',
  zipPlus4: 'propertyZipPlus4',
  country: 'propertyCountry',
  latitude: 'propertyLatitude',
  longitude: 'propertyLongitude',
  propertyType: 'propertyType',
} as const satisfies Record<keyof PropertyFormValues, keyof typeof PropertyBody.shape>

type FormField = keyof PropertyFormValues
const FORM_FIELDS = Object.keys(API_FIELD) as FormField[]

const shape = PropertyBody.shape
/**
 * SPEC §5: address1, city, stateLong, county, zipCode, country and propertyType required, the zip and
 * the state checked against the country — the same rules the server applies (PropertyBody), under the
 * form's own field names.
 */
export const PropertyForm = z
  .object({
    address1: shape.propertyAddress1,
    address2: shape.propertyAddress2,
    city: shape.propertyCity,
    stateLong: shape.propertyState,
    county: shape.propertyCounty,
    zipCode: shape.propertyZipCode,
    zipPlus4: shape.propertyZipPlus4,
    country: shape.propertyCountry,
    latitude: shape.propertyLatitude,
    longitude: shape.propertyLongitude,
    propertyType: shape.propertyType,
  })
  .superRefine(
    (v, ctx) => {
      const problems = addressProblems({
        propertyCountry: v.country,
        propertyState: v.stateLong,
        propertyZipCode: v.zipCode,
        propertyZipPlus4: v.zipPlus4,
      })
      for (const { field, message } of problems) {
        const name = FORM_FIELDS.find((f) => API_FIELD[f] === field)
        ctx.addIssue({ code: 'custom', path: [name ?? field], message })
      }
    },
    whenValid('country', 'stateLong', 'zipCode', 'zipPlus4'),
  )
  .transform((v) => ({
    propertyAddress1: v.address1,
    propertyAddress2: v.address2,
    propertyCity: v.city,
    propertyState: v.stateLong,
    propertyCounty: v.county,
    propertyZipCode: v.zipCode,
    propertyZipPlus4: v.zipPlus4,
    propertyCountry: v.country,
    propertyLatitude: v.latitude,
    propertyLongitude: v.longitude,
    propertyType: v.propertyType,
  }))

/** Shared schemas word an unpicked select as a bad value; these say what is missing. */
export const PROPERTY_REQUIRED_MESSAGES = {
  country: 'Country is required',
  propertyType: 'Property type is required',
}

export function emptyPropertyValues(): PropertyFormValues {
  return {
    address1: '',
    address2: '',
    city: '',
    stateLong: '',
    county: '',
    zipCode: '',
    zipPlus4: '',
    country: 'United States',
    latitude: '',
    longitude: '',
    propertyType: '',
  }
}

export function propertyValues(p: Property): PropertyFormValues {
  return {
    address1: p.propertyAddress1,
    address2: p.propertyAddress2 ?? '',
    city: p.propertyCity,
    stateLong: p.propertyState,
    county: p.propertyCounty ?? '',
    zipCode: p.propertyZipCode,
    zipPlus4: p.propertyZipPlus4 ?? '',
    country: p.propertyCountry,
    latitude: p.propertyLatitude === null ? '' : String(p.propertyLatitude),
    longitude: p.propertyLongitude === null ? '' : String(p.propertyLongitude),
    propertyType: p.propertyType,
  }
}

/** A chosen address suggestion, as form values (the property type stays as picked). */
export function suggestionValues(s: AddressSuggestion): Omit<PropertyFormValues, 'propertyType'> {
  return {
    address1: s.propertyAddress1,
    address2: s.propertyAddress2 ?? '',
    city: s.propertyCity,
    stateLong: s.propertyState,
    county: s.propertyCounty,
    zipCode: s.propertyZipCode,
    zipPlus4: s.propertyZipPlus4 ?? '',
    country: s.propertyCountry,
    latitude: s.propertyLatitude === null ? '' : String(s.propertyLatitude),
    longitude: s.propertyLongitude === null ? '' : String(s.propertyLongitude),
  }
}

/** The values as the schema reads them: empty coordinates and selects as missing. */
export function propertyInput(values: PropertyFormValues) {
  return {
    ...values,
    country: values.country || undefined,
    propertyType: values.propertyType || undefined,
    latitude: values.latitude.trim() || null,
    longitude: values.longitude.trim() || null,
  }
}

/**
 * A server 422 names the API's nested fields (`rePropertyDTO.propertyCity`); this renames them to the
 * form's, so each message shows beside its input.
 */
export function toFormErrors(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return error
  const fields = error.fieldErrors.map(({ field, message }) => {
    const apiName = field.replace(/^rePropertyDTO\./, '')
    const formName = FORM_FIELDS.find((name) => API_FIELD[name] === apiName)
    return { field: formName ?? field, message }
  })
  return new ApiError(error.status, error.code, error.message, fields)
}
