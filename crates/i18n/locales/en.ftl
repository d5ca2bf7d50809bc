# English texts. Keys are prefixed by where they are shown: page- (customer pages and the
# page kit), cabinet-, notice-, bot-, api- (the partner API: error messages and labels).
# Arguments: $count/$days/$used/$limit are numbers (plural forms follow CLDR), MONEY($amount)
# and DATE($day) write amounts and days.

## The page kit

page-platform-name = VPN partner platform
page-support = Support
page-language = Language
page-not-found-title = Page not found
page-not-found-why = The link may be mistyped or no longer valid. If it came from a shop or a bot, ask it for a new one.
page-not-found-home = Go to the start page
page-unavailable-title = Temporarily unavailable
page-unavailable-why = Something went wrong on our side. Please try again in a minute.
page-try-again = Try again

## A subscription's state (connect pages)

page-subscription-title = Your subscription
page-subscription-status = Status
page-subscription-active-trial = Active (trial)
page-subscription-active = Active
page-subscription-expired = Expired
page-subscription-paused = Paused
page-subscription-valid-until = Valid until
page-subscription-lifetime = Never (lifetime)
page-subscription-until-day = { DATE($day) } ({ $days ->
    [one] { $days } day left
   *[other] { $days } days left
})
page-subscription-devices = Devices
page-subscription-devices-used-of = { $used } of { $limit }
page-subscription-devices-used = { $used } (no limit)
page-subscription-devices-up-to = up to { $limit }
page-subscription-devices-no-limit = no limit

## Connect pages

page-connect-apps = Apps
page-connect-apps-for = Apps for { $platform }
page-connect-platform = Platform
page-connect-other-apps = Other apps
page-connect-open-in = Open in { $app }
page-connect-get-it-on = Get it on
page-connect-nothing-happened = Nothing happened after pressing Open? Install the app first, then press Open again.
page-connect-link-title = Subscription link
page-connect-link-hint = Or add this link in the app by hand:
page-connect-copy = Copy
page-connect-copied = Copied
page-connect-another-device = On another device
page-connect-qr-label = QR code of the connect page
page-connect-scan = Scan with the phone's camera to open this page there.

## The start page

page-home-what = Partners sell VPN subscriptions under their own brand through this service's API: plans and prices, invoices, clients, trials, devices and app links.
page-home-api = Partner API document (OpenAPI)
page-home-health = Service health
page-home-customers = Looking for your subscription? Open the link your shop or bot sent you.

## Legal documents

page-document-operator = Operator
page-document-operator-name = Name
page-document-contact = Contact
page-document-since = In effect since

## The cabinet's frame

cabinet-menu = Cabinet
cabinet-section-overview = Overview
cabinet-section-webhooks = Webhooks
cabinet-section-balance = Balance
cabinet-section-clients = Clients
cabinet-section-notices = Notices
cabinet-section-activity = Activity
cabinet-sign-out = Sign out
cabinet-not-found = Not found
cabinet-older = Older
cabinet-back = Back to the cabinet
cabinet-stale-form-title = The form has expired
cabinet-stale-form-why = Nothing was changed. Open the page again and repeat the action.

## Cabinet: overview

cabinet-overview-on = on
cabinet-overview-off = off
cabinet-overview-brand-refused = The brand name must be 1 to { $max } characters on one line.
cabinet-overview-brand-saved = The brand name is saved.
cabinet-overview-brand = Brand name
cabinet-overview-brand-help = Shown to your customers on payment pages, documents and in VPN apps.
cabinet-overview-brand-save = Save the name
cabinet-overview-account = Account
cabinet-overview-account-id = Account id
cabinet-overview-markup = Markup
cabinet-overview-trial = Trial
cabinet-overview-api = API access
cabinet-overview-api-enabled = enabled
cabinet-overview-api-disabled = disabled by the platform
cabinet-overview-available = Available balance
cabinet-overview-keys = API keys
cabinet-overview-keys-help = Keys are issued by the platform and shown only once; here are their first characters.
cabinet-overview-key = Key
cabinet-overview-key-issued = Issued
cabinet-overview-key-state = State
cabinet-overview-key-revoked = revoked
cabinet-overview-key-active = active
cabinet-overview-limits = Limits in force
cabinet-overview-requests-per-minute = Requests per minute
cabinet-overview-invoices-per-minute = Invoices per minute
cabinet-overview-new-clients-per-day = New clients per day
cabinet-overview-trials-per-day = Trials per day
cabinet-overview-limits-help = Higher limits are arranged with the platform.
cabinet-overview-more = More
cabinet-overview-more-webhooks = Webhook addresses, secrets and the delivery log
cabinet-overview-more-balance = Balance, ledger and withdrawals
cabinet-overview-more-clients = Clients: subscriptions, devices and invoices
cabinet-overview-more-notices = Notices from the platform and Telegram
cabinet-overview-more-activity = Activity: who did what in the cabinet

## Cabinet: activity

cabinet-activity-none = Nothing has happened yet.
cabinet-activity-when = When
cabinet-activity-who = Who
cabinet-activity-what = What
cabinet-activity-details = Details
cabinet-action-user-invited = user invited
cabinet-action-user-reset-link = password reset link issued
cabinet-action-user-revoked = user access ended
cabinet-action-password-set = password set
cabinet-action-signed-in = signed in
cabinet-action-signed-out = signed out
cabinet-action-brand-renamed = brand name changed
cabinet-action-endpoint-added = webhook address added
cabinet-action-endpoint-types-changed = webhook events changed
cabinet-action-endpoint-enabled = webhook address enabled
cabinet-action-endpoint-disabled = webhook address disabled
cabinet-action-endpoint-secret-revealed = signing secret shown
cabinet-action-endpoint-secret-rotated = signing secret rotated
cabinet-action-endpoint-tested = test event sent
cabinet-action-endpoint-replayed = undelivered events replayed
cabinet-action-withdrawal-requested = withdrawal requested
cabinet-action-withdrawal-approved = withdrawal approved
cabinet-action-withdrawal-rejected = withdrawal rejected
cabinet-action-withdrawal-paid = withdrawal paid out
cabinet-action-chat-linked = Telegram chat linked
cabinet-action-chat-unlinked = Telegram chat unlinked

## Notices to partners (cabinet and messenger)

notice-endpoint-disabled = { $brand }: webhook address { $url } was disabled because { $reason ->
        [gone] it answered 410 Gone
       *[other] no attempt was accepted for five days
    }. Fix the receiver, re-enable the address in the cabinet and replay the events you missed.
notice-withdrawal-paid = { $brand }: withdrawal { $withdrawal } of { MONEY($amount) } was paid out.
notice-chat-linked = This chat now receives the notices of { $brand }.
notice-chat-link-expired = This link has expired or was used. Press "Link Telegram" in the cabinet again.

## Partner API error messages (the envelope's `message`, by error code)

api-error-unauthorized = The API key is missing, wrong or revoked, or API access is disabled.
api-error-validation-error = The request has fields of the wrong shape; see fields.
api-error-rate-limited = Too many requests; retry after Retry-After seconds.
api-error-new-clients-daily-limit = The daily limit of new clients is used up.
api-error-idempotency-key-required = The Idempotency-Key header is required.
api-error-idempotency-key-too-long = The Idempotency-Key header must be at most 200 characters.
api-error-idempotency-key-reuse = The Idempotency-Key is already bound to an invoice with other fields.
api-error-operation-in-progress = The invoice for this Idempotency-Key is still being issued; retry in a couple of seconds.
api-error-payment-unavailable = The payment service did not answer; no invoice was issued. Retry with the same key.
api-error-unsupported-payment-method = The payment method is not available.
api-error-plan-not-found = The plan does not exist or is withdrawn.
api-error-payment-not-found = No such invoice in the account.
api-error-api-client-not-found = No such client in the account.
api-error-api-client-blocked = The client is blocked by the platform.
api-error-no-active-subscription = The operation needs an active subscription.
api-error-device-slot-limit-exceeded = The client's device ceiling would be exceeded.
api-error-device-slots-not-applicable = The client's devices are unlimited.
api-error-devices-not-for-sale = Extra devices are not sold now.
api-error-device-not-found = The client has no such device.
api-error-trial-disabled = Trials are not enabled for the account.
api-error-trial-already-used = The client already had a subscription.
api-error-trial-daily-limit = The daily trial limit is used up.
api-error-link-rotate-too-soon = The link was rotated less than an hour ago; retry after Retry-After seconds.
api-error-service-unavailable = The VPN service did not answer; nothing was changed. Retry later.
api-error-internal-error = Internal error; retry the request.
api-error-lifetime-subscription = The client already has a lifetime subscription.
api-error-not-found = No such endpoint.
api-error-method-not-allowed = The endpoint does not support this method.
api-error-unsupported-media-type = The body must be sent as application/json.
api-error-payload-too-large = The request body is too large.

## Partner API texts

api-download-label = Download { $app } for { $platform }
