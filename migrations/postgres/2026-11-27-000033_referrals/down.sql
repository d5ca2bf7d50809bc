DELETE FROM reminder_sends WHERE kind = 'referral';
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check
    CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid', 'renewal_declined'));
DROP TABLE referrals;
DROP TABLE referral_codes;
DROP TABLE referral_programs;
