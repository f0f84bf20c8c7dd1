export * from './rules/pricing.ts'
export * from './schemas/pricing.ts'
