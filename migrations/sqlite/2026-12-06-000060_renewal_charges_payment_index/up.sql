-- The sales figures ask which of a page's invoices a saved card's automatic charge paid.
CREATE INDEX IF NOT EXISTS renewal_charges_payment ON renewal_charges (payment_id);
