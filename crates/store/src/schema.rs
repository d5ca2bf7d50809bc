//! One diesel schema for both backends: only types that map the same way on PostgreSQL and
//! SQLite (Text, Integer, BigInt, Bool, Timestamp).

diesel::table! {
    accounts (id) {
        id -> Text,
        brand_name -> Text,
        markup_bp -> Integer,
        trial_enabled -> Bool,
        api_enabled -> Bool,
        limit_requests_per_minute -> Nullable<Integer>,
        limit_payments_per_minute -> Nullable<Integer>,
        limit_new_clients_per_day -> Nullable<Integer>,
        limit_trials_per_day -> Nullable<Integer>,
        created_at -> Timestamp,
        logo_url -> Nullable<Text>,
        accent_color -> Nullable<Text>,
        support_url -> Nullable<Text>,
        renewal_url -> Nullable<Text>,
        time_zone -> Text,
    }
}

diesel::table! {
    api_keys (id) {
        id -> Text,
        account_id -> Text,
        key_hash -> Text,
        prefix -> Text,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    plans (plan_id) {
        plan_id -> Integer,
        months -> Integer,
        lifetime -> Bool,
        device_limited -> Bool,
        platform_price -> BigInt,
        created_at -> Timestamp,
        retired_at -> Nullable<Timestamp>,
        traffic_limit_bytes -> Nullable<BigInt>,
        traffic_reset -> Nullable<Text>,
    }
}

diesel::table! {
    device_settings (id) {
        id -> Integer,
        included -> Integer,
        max_devices -> Integer,
        platform_price -> Nullable<BigInt>,
    }
}

diesel::table! {
    payment_methods (code) {
        code -> Text,
        name_en -> Text,
        name_ru -> Text,
        enabled -> Bool,
        position -> Integer,
        gateway_type -> Nullable<Text>,
        gateway -> Nullable<Text>,
    }
}

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    clients (id) {
        id -> Text,
        account_id -> Text,
        client_id -> Text,
        created_at -> Timestamp,
        blocked -> Bool,
    }
}

diesel::table! {
    subscriptions (client_ref) {
        client_ref -> Text,
        status -> Text,
        is_trial -> Bool,
        lifetime -> Bool,
        expires_at -> Timestamp,
        term_started_at -> Timestamp,
        devices_unlimited -> Bool,
        devices_included -> Integer,
        devices_purchased -> Integer,
        reminder_72_sent -> Bool,
        reminder_24_sent -> Bool,
        link_rotated_at -> Nullable<Timestamp>,
        link_token -> Text,
        revision -> BigInt,
        panel_revision -> BigInt,
        change_seq -> BigInt,
        panel_failures -> Integer,
        panel_retry_at -> Nullable<Timestamp>,
        next_check_at -> Nullable<Timestamp>,
        auto_renew -> Bool,
        panel_name -> Nullable<Text>,
        panel_id -> Nullable<Text>,
        traffic_limit_bytes -> Nullable<BigInt>,
        traffic_reset -> Nullable<Text>,
    }
}

diesel::table! {
    invoices (payment_id) {
        payment_id -> Text,
        account_id -> Text,
        client_ref -> Text,
        status -> Text,
        purpose -> Text,
        plan_id -> Nullable<Integer>,
        devices -> Nullable<Integer>,
        method -> Text,
        amount -> BigInt,
        platform_amount -> BigInt,
        partner_share -> BigInt,
        return_url -> Nullable<Text>,
        payment_url -> Nullable<Text>,
        gateway_payment_id -> Nullable<Text>,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        paid_at -> Nullable<Timestamp>,
        gateway_check_at -> Nullable<Timestamp>,
        gateway_checks -> Integer,
        receipt -> Nullable<Text>,
        promo -> Nullable<Text>,
        rail -> Nullable<Text>,
    }
}

diesel::table! {
    idempotency_keys (account_id, key) {
        account_id -> Text,
        key -> Text,
        request_fingerprint -> Text,
        payment_id -> Text,
        recovery_point -> Text,
        locked_until -> Nullable<Timestamp>,
        created_at -> Timestamp,
        gateway_request -> Nullable<Text>,
    }
}

diesel::table! {
    ledger_entries (id) {
        id -> Text,
        account_id -> Text,
        payment_id -> Nullable<Text>,
        withdrawal_id -> Nullable<Text>,
        kind -> Text,
        amount -> BigInt,
        held -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    trial_grants (client_ref) {
        client_ref -> Text,
        account_id -> Text,
        granted_at -> Timestamp,
    }
}

diesel::table! {
    local_panel_users (user_ref) {
        user_ref -> Text,
        link_token -> Text,
        expires_at -> Timestamp,
        device_limit -> Nullable<Integer>,
        enabled -> Bool,
        traffic_limit_bytes -> Nullable<BigInt>,
        traffic_reset -> Nullable<Text>,
        traffic_counted_from -> Nullable<Timestamp>,
    }
}

diesel::table! {
    imported_balances (account_id, source, source_customer_id) {
        account_id -> Text,
        source -> Text,
        source_customer_id -> BigInt,
        telegram_id -> Nullable<BigInt>,
        client_ref -> Nullable<Text>,
        amount -> BigInt,
        currency -> Text,
        imported_at -> Timestamp,
    }
}

diesel::table! {
    traffic_thresholds (client_ref, counted_since, threshold_percent) {
        client_ref -> Text,
        counted_since -> Timestamp,
        threshold_percent -> SmallInt,
        told_at -> Timestamp,
    }
}

diesel::table! {
    local_panel_traffic (user_ref) {
        user_ref -> Text,
        used_bytes -> BigInt,
        counted_since -> Timestamp,
    }
}

diesel::table! {
    local_panel_devices (user_ref, hwid) {
        user_ref -> Text,
        hwid -> Text,
        platform -> Nullable<Text>,
        os_version -> Nullable<Text>,
        model -> Nullable<Text>,
        user_agent -> Nullable<Text>,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
    }
}

diesel::joinable!(subscriptions -> clients (client_ref));
diesel::joinable!(invoices -> clients (client_ref));
diesel::joinable!(trial_grants -> clients (client_ref));

diesel::joinable!(api_keys -> accounts (account_id));

diesel::allow_tables_to_appear_in_same_query!(clients, subscriptions, invoices);
diesel::allow_tables_to_appear_in_same_query!(trial_grants, clients);
diesel::allow_tables_to_appear_in_same_query!(api_keys, accounts);

diesel::joinable!(client_chats -> clients (client_ref));
diesel::allow_tables_to_appear_in_same_query!(clients, client_chats);
diesel::allow_tables_to_appear_in_same_query!(subscriptions, client_chats);
diesel::allow_tables_to_appear_in_same_query!(clients, bot_chat_languages);
diesel::allow_tables_to_appear_in_same_query!(subscriptions, bot_chat_languages);
diesel::allow_tables_to_appear_in_same_query!(client_chats, bot_chat_languages);

diesel::table! {
    webhook_endpoints (id) {
        id -> Text,
        account_id -> Text,
        url -> Text,
        event_types -> Text,
        secret_sealed -> Text,
        previous_secret_sealed -> Nullable<Text>,
        secret_rotated_at -> Nullable<Timestamp>,
        enabled -> Bool,
        disabled_reason -> Nullable<Text>,
        disabled_at -> Nullable<Timestamp>,
        failing_since -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    events (id) {
        id -> Text,
        account_id -> Text,
        event_type -> Text,
        body -> Text,
        occurred_at -> Timestamp,
        created_at -> Timestamp,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Text,
        event_id -> Text,
        endpoint_id -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        locked_until -> Nullable<Timestamp>,
        delivered_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> Text,
        delivery_id -> Text,
        attempt -> Integer,
        attempted_at -> Timestamp,
        status_code -> Nullable<Integer>,
        duration_ms -> Integer,
        error -> Nullable<Text>,
    }
}

diesel::table! {
    daily_counts (account_id, kind, hour, stripe) {
        account_id -> Text,
        kind -> Text,
        hour -> BigInt,
        stripe -> Integer,
        n -> BigInt,
    }
}

diesel::table! {
    cabinet_users (id) {
        id -> Text,
        account_id -> Text,
        email -> Text,
        password_hash -> Nullable<Text>,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    cabinet_links (token_hash) {
        token_hash -> Text,
        user_id -> Text,
        purpose -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    cabinet_sessions (token_hash) {
        token_hash -> Text,
        user_id -> Text,
        csrf_token -> Text,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
    }
}

diesel::table! {
    cabinet_sign_in_failures (id) {
        id -> Text,
        email -> Text,
        address -> Text,
        at -> Timestamp,
    }
}

diesel::table! {
    cabinet_audit (id) {
        id -> Text,
        account_id -> Text,
        user_id -> Nullable<Text>,
        actor -> Text,
        action -> Text,
        detail -> Text,
        at -> Timestamp,
    }
}

diesel::joinable!(webhook_deliveries -> events (event_id));
diesel::joinable!(webhook_attempts -> webhook_deliveries (delivery_id));
diesel::allow_tables_to_appear_in_same_query!(webhook_attempts, webhook_deliveries, events);

diesel::table! {
    withdrawals (id) {
        id -> Text,
        account_id -> Text,
        amount -> BigInt,
        payout_details -> Text,
        status -> Text,
        note -> Nullable<Text>,
        requested_by -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    partner_notices (id) {
        id -> Text,
        account_id -> Text,
        kind -> Text,
        subject_id -> Text,
        url -> Nullable<Text>,
        reason -> Nullable<Text>,
        amount -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    partner_chats (account_id, chat_id) {
        account_id -> Text,
        chat_id -> BigInt,
        linked_by -> Text,
        lang -> Text,
        linked_at -> Timestamp,
    }
}

diesel::table! {
    partner_bots (account_id) {
        account_id -> Text,
        bot_id -> BigInt,
        username -> Text,
        token_hash -> Text,
        token_sealed -> Text,
        connected_at -> Timestamp,
        disconnected_at -> Nullable<Timestamp>,
        profile_revision -> BigInt,
        profile_synced -> BigInt,
        profile_attempts -> Integer,
        profile_retry_at -> Nullable<Timestamp>,
        profile_error -> Nullable<Text>,
        webhook -> Nullable<Text>,
        managed -> Bool,
    }
}

diesel::table! {
    bot_create_codes (code_hash) {
        code_hash -> Text,
        account_id -> Text,
        request_id -> Integer,
        requested_by_user -> Nullable<Text>,
        requested_by -> Text,
        lang -> Text,
        expires_at -> Timestamp,
        opened_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    client_chats (client_ref) {
        client_ref -> Text,
        account_id -> Text,
        chat_id -> BigInt,
        linked_at -> Timestamp,
    }
}

diesel::table! {
    bot_chat_languages (account_id, chat_id) {
        account_id -> Text,
        chat_id -> BigInt,
        lang -> Text,
    }
}

diesel::table! {
    client_link_codes (code_hash) {
        code_hash -> Text,
        client_ref -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    reminder_sends (id) {
        id -> Text,
        account_id -> Text,
        client_ref -> Text,
        chat_id -> BigInt,
        kind -> Text,
        term_ends_at -> Timestamp,
        created_at -> Timestamp,
        attempts -> Integer,
        next_attempt_at -> Nullable<Timestamp>,
        sent_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        payment_id -> Text,
    }
}

diesel::table! {
    bot_customers (account_id, user_id) {
        account_id -> Text,
        user_id -> BigInt,
        chat_id -> BigInt,
        started_at -> Timestamp,
        last_seen_at -> Timestamp,
        client_ref -> Nullable<Text>,
        receipt_email -> Nullable<Text>,
        promo_code -> Nullable<Text>,
        promo_asked_at -> Nullable<Timestamp>,
        refused_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    person_subscriptions (account_id, user_id, position) {
        account_id -> Text,
        user_id -> BigInt,
        position -> Integer,
        client_id -> Text,
        name -> Nullable<Text>,
        asked_at -> Timestamp,
    }
}

diesel::table! {
    shop_subscriptions (account_id, email, position) {
        account_id -> Text,
        email -> Text,
        position -> Integer,
        client_id -> Text,
        name -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    daily_channel_sales (account_id, day, channel, method) {
        account_id -> Text,
        day -> Text,
        channel -> Text,
        method -> Text,
        issued -> Integer,
        paid -> Integer,
        refunded -> Integer,
        failed -> Integer,
        expired -> Integer,
        gross -> BigInt,
        partner_share -> BigInt,
        new_clients -> Integer,
        trials -> Integer,
        first_purchases -> Integer,
        converted -> Integer,
        renewals_manual -> Integer,
        renewals_card -> Integer,
        renewals_stars -> Integer,
        ended -> Integer,
        promo_discount -> BigInt,
        promo_gross -> BigInt,
        referral_rewards -> Integer,
        referred_gross -> BigInt,
    }
}

diesel::table! {
    gifts (payment_id) {
        payment_id -> Text,
        account_id -> Text,
        code_hash -> Text,
        recipient_email -> Nullable<Text>,
        lang -> Text,
        created_at -> Timestamp,
        redeemed_at -> Nullable<Timestamp>,
        redeemed_by -> Nullable<Text>,
        refunded_at -> Nullable<Timestamp>,
    }
}

diesel::allow_tables_to_appear_in_same_query!(clients, bot_customers);
diesel::allow_tables_to_appear_in_same_query!(clients, person_subscriptions);
diesel::allow_tables_to_appear_in_same_query!(invoices, person_subscriptions);
diesel::allow_tables_to_appear_in_same_query!(invoices, bot_customers);
diesel::allow_tables_to_appear_in_same_query!(subscriptions, bot_customers);
diesel::allow_tables_to_appear_in_same_query!(client_chats, bot_customers);
diesel::allow_tables_to_appear_in_same_query!(bot_chat_languages, bot_customers);

diesel::table! {
    bot_device_lists (account_id, chat_id) {
        account_id -> Text,
        chat_id -> BigInt,
        nonce -> Text,
        device_ids -> Text,
        listed_at -> Timestamp,
    }
}

diesel::table! {
    bot_updates (bot_id, update_id) {
        bot_id -> BigInt,
        update_id -> BigInt,
        received_at -> Timestamp,
    }
}

diesel::table! {
    leases (name) {
        name -> Text,
        holder -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    chat_link_codes (code_hash) {
        code_hash -> Text,
        account_id -> Text,
        user_id -> Text,
        linked_by -> Text,
        lang -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    notice_sends (notice_id, chat_id) {
        notice_id -> Text,
        chat_id -> BigInt,
        attempts -> Integer,
        next_attempt_at -> Nullable<Timestamp>,
        sent_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    renewal_consents (id) {
        id -> Text,
        account_id -> Text,
        client_ref -> Text,
        payment_id -> Text,
        plan_id -> Integer,
        method -> Text,
        consented_at -> Timestamp,
        text -> Text,
        lang -> Text,
        amount -> BigInt,
        platform_amount -> BigInt,
        partner_share -> BigInt,
        price_told_at -> Timestamp,
        saved_method_sealed -> Nullable<Text>,
        saved_method_title -> Nullable<Text>,
        turned_off_at -> Nullable<Timestamp>,
        turned_off_by -> Nullable<Text>,
    }
}

diesel::table! {
    renewal_charges (client_ref, term_ends_at) {
        client_ref -> Text,
        term_ends_at -> Timestamp,
        account_id -> Text,
        consent_id -> Text,
        attempt -> Integer,
        payment_id -> Text,
        state -> Text,
        next_try_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    stars_rates (account_id) {
        account_id -> Text,
        kopecks_per_star -> BigInt,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    stars_invoices (payment_id) {
        payment_id -> Text,
        account_id -> Text,
        stars -> BigInt,
        subscription -> Bool,
        created_at -> Timestamp,
    }
}

diesel::table! {
    stars_charges (charge_id) {
        charge_id -> Text,
        account_id -> Text,
        payment_id -> Text,
        user_id -> BigInt,
        stars -> BigInt,
        renewal -> Bool,
        paid_at -> Timestamp,
        refunded_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    stars_subscriptions (charge_id) {
        charge_id -> Text,
        account_id -> Text,
        client_ref -> Text,
        payment_id -> Text,
        user_id -> BigInt,
        stars -> BigInt,
        paid_until -> Timestamp,
        canceled_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    mail_outbox (id) {
        id -> Text,
        account_id -> Nullable<Text>,
        to_address -> Text,
        lang -> Text,
        content -> Text,
        created_at -> Timestamp,
        attempts -> Integer,
        next_attempt_at -> Nullable<Timestamp>,
        sent_at -> Nullable<Timestamp>,
        given_up_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    shop_slugs (account_id) {
        account_id -> Text,
        slug -> Text,
        updated_at -> Timestamp,
    }
}
diesel::allow_tables_to_appear_in_same_query!(accounts, shop_slugs);
diesel::allow_tables_to_appear_in_same_query!(shop_customers, clients);

diesel::table! {
    shop_sign_ins (id) {
        id -> Text,
        account_id -> Text,
        email -> Text,
        code_hash -> Text,
        link_hash -> Text,
        source -> Text,
        tries_left -> Integer,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    shop_sessions (token_hash) {
        token_hash -> Text,
        account_id -> Text,
        email -> Text,
        csrf_token -> Text,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
    }
}

diesel::table! {
    shop_customers (account_id, email) {
        account_id -> Text,
        email -> Text,
        client_ref -> Text,
        lang -> Text,
        first_payment_id -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    promo_codes (id) {
        id -> Text,
        account_id -> Text,
        code -> Text,
        benefit -> Text,
        amount -> BigInt,
        max_uses -> Nullable<Integer>,
        per_customer -> Integer,
        first_purchase_only -> Bool,
        plans -> Nullable<Text>,
        expires_at -> Nullable<Timestamp>,
        disabled_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    promo_uses (payment_id) {
        payment_id -> Text,
        promo_id -> Text,
        account_id -> Text,
        client_id -> Text,
        created_at -> Timestamp,
    }
}

diesel::allow_tables_to_appear_in_same_query!(promo_uses, invoices);

diesel::table! {
    referral_programs (account_id) {
        account_id -> Text,
        days -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    referral_codes (code) {
        code -> Text,
        account_id -> Text,
        client_ref -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    referrals (account_id, invited_user_id) {
        account_id -> Text,
        invited_user_id -> BigInt,
        inviter_ref -> Text,
        invited_at -> Timestamp,
        payment_id -> Nullable<Text>,
        days -> Nullable<Integer>,
        state -> Nullable<Text>,
        rewarded_at -> Nullable<Timestamp>,
        spent_payment_id -> Nullable<Text>,
        reversed_at -> Nullable<Timestamp>,
    }
}

diesel::allow_tables_to_appear_in_same_query!(referrals, clients);

diesel::table! {
    broadcasts (id) {
        id -> Text,
        account_id -> Text,
        text -> Text,
        text_ru -> Nullable<Text>,
        button_text -> Nullable<Text>,
        button_url -> Nullable<Text>,
        audience -> Text,
        state -> Text,
        created_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    broadcast_chats (broadcast_id, chat_id) {
        broadcast_id -> Text,
        chat_id -> BigInt,
        lang -> Text,
        state -> Text,
        attempts -> Integer,
        next_attempt_at -> Nullable<Timestamp>,
        sent_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    operators (id) {
        id -> Text,
        email -> Text,
        password_hash -> Nullable<Text>,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    operator_links (token_hash) {
        token_hash -> Text,
        operator_id -> Text,
        purpose -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    operator_sessions (token_hash) {
        token_hash -> Text,
        operator_id -> Text,
        csrf_token -> Text,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
    }
}

diesel::table! {
    operator_audit (id) {
        id -> Text,
        operator_id -> Nullable<Text>,
        actor -> Text,
        action -> Text,
        detail -> Text,
        at -> Timestamp,
    }
}
