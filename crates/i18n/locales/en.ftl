# English texts. Keys are prefixed by where they are shown: page- (customer pages and the
# page kit), cabinet-, notice-, bot-. Arguments: $count/$days/$used/$limit are numbers
# (plural forms follow CLDR), MONEY($amount) and DATE($day) write amounts and days.

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
