-- Reconstruction or debt negotiation as the registry shows it (brreg
-- underRekonstruksjonsforhandlingDato), for the isInDebtNegotiation signal. NULL where the source
-- does not say; Norwegian companies written before this column are read as false (the field is
-- absent from their registry record, or their content hash would have changed and rewritten them).
ALTER TABLE companies ADD COLUMN is_in_debt_negotiation boolean;
