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
page-subscription-traffic = Traffic
# $used is the GB used, already written out (8.6); $limit is the limit (10 GB a month).
page-subscription-traffic-used-of = { $used } of { $limit }
# $gb is the amount already written out (50, 1.5); $reset is when the count starts again.
page-subscription-traffic-limit = { $gb } GB { $reset ->
    [day] a day
    [week] a week
    [month] a month
    [month_rolling] a month
   *[no_reset] per term
}

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
page-home-api-reference = Partner API reference (operations, errors, events)
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
cabinet-overview-shop = Your web shop
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
cabinet-renewal-title = Automatic renewal
cabinet-renewal-state = State
cabinet-renewal-on = On: the saved method is charged a day before the term ends
cabinet-renewal-off-since = Off since { $when } ({ $by })
cabinet-renewal-off-by-customer = the customer
cabinet-renewal-off-by-support = support: { $email }
cabinet-renewal-off-by-operator = the platform operator
cabinet-renewal-off-by-stars = the customer, in Telegram (Stars subscription)
cabinet-renewal-consented = Consented
cabinet-renewal-invoice = With invoice
cabinet-renewal-next-amount = Amount of the next charge
cabinet-renewal-method = Saved method
cabinet-renewal-text = Words the customer was shown
cabinet-renewal-turn-off = Turn off automatic renewal
cabinet-renewal-turned-off = Automatic renewal is off for this client: nothing more will be charged.
cabinet-stars-title = Telegram Stars subscription
cabinet-stars-renewing = Renewing: Telegram charges { $stars } Stars every 30 days
cabinet-stars-canceled-since = Cancelled since { $when }
cabinet-stars-first-charge = First charge
cabinet-stars-paid-until = Paid until, as Telegram says
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

## Cabinet: sign-in

cabinet-sign-in-title = Sign in to the partner cabinet
cabinet-sign-in-email = Email
cabinet-sign-in-password = Password
cabinet-sign-in-submit = Sign in
cabinet-sign-in-help = Access is given by the platform: ask your contact there for an invitation or a new password link.
cabinet-sign-in-wrong = Wrong email or password.
cabinet-sign-in-locked = Too many failed attempts. Sign-in is locked until { $until }; try again then.
cabinet-sign-in-link-gone = This link no longer works
cabinet-sign-in-link-gone-why = Links to set a password work once and for 72 hours. Ask the platform for a new one.
cabinet-sign-in-password-too-short = { $count ->
    [one] Use at least { $count } character.
   *[other] Use at least { $count } characters.
    }
cabinet-sign-in-password-too-long = This password is too long.
cabinet-sign-in-welcome-title = Welcome to the partner cabinet
cabinet-sign-in-reset-title = Choose a new password
cabinet-sign-in-for-whom = Set the password for
cabinet-sign-in-link-valid = The link works once, until { $until }.
cabinet-sign-in-new-password = New password
cabinet-sign-in-password-rule = { $count ->
    [one] At least { $count } character; a phrase of several words is easy to remember.
   *[other] At least { $count } characters; a phrase of several words is easy to remember.
    }
cabinet-sign-in-confirm = The password again
cabinet-sign-in-set-password = Set the password and sign in
cabinet-sign-in-passwords-differ = The two passwords differ.

## Cabinet: notices

cabinet-notices-intro = For example: a webhook address the platform disabled, or a withdrawal paid out.
cabinet-notices-none = The platform has not told you anything yet.
cabinet-notices-no-such-chat = No such chat is linked to your account.
cabinet-notices-telegram = Telegram
cabinet-notices-telegram-off = This platform does not send notices to Telegram; they appear here only.
cabinet-notices-telegram-intro = Linked chats receive every notice as a message from the platform's bot.
cabinet-notices-unlinked = The chat is unlinked.
cabinet-notices-no-chats = No chat is linked yet.
cabinet-notices-chat = Chat
cabinet-notices-linked-by = Linked by
cabinet-notices-since = Since
cabinet-notices-unlink = Unlink
cabinet-notices-open-telegram = Open Telegram and press Start
cabinet-notices-link-help = The link works once, in the chat where you open it, until { $until }.
cabinet-notices-link-telegram = Link Telegram

## Payment pages: the order

page-order-order = Order
page-order-number = Order number
page-order-method = Payment method
page-order-pay-by = Pay by
page-order-lifetime = Lifetime subscription
page-order-subscription = { $count ->
    [one] Subscription for { $count } month
   *[other] Subscription for { $count } months
    }
page-order-devices = { $count ->
    [one] { $count } extra device
   *[other] { $count } extra devices
    }
page-order-minutes-left = { $minutes } min left
page-order-hours-left = { $hours } h { $minutes } min left
page-order-receipt = Receipt: { MONEY($amount) }, { $when }, { $method }, order
page-order-connect = Connect now
page-order-connect-mailed = The connect link is in the email we sent to the address of this order.
page-order-back-to-shop = Back to the shop
page-order-new-invoice = Return to the shop or the bot for a new invoice.

## Payment pages: the sandbox gateway

page-sandbox-note = Sandbox payment page: no real money moves.
page-sandbox-title = Payment
page-sandbox-pay = Pay
page-sandbox-pay-anyway = Pay anyway
page-sandbox-decline = Decline
page-sandbox-paid = Paid. Thank you!
page-sandbox-failed = The payment did not go through.
page-sandbox-nothing-taken = No money was taken.
page-sandbox-expired = The payment window has passed.
page-sandbox-you-accept = By paying you accept:
page-sandbox-documents = Documents:
page-sandbox-unknown-action = Unknown action
page-renew-tick = Renew automatically: { MONEY($amount) } for { $months ->
    [one] { $months } month
   *[other] { $months } months
    } each time, next charge on { $date } from the card you pay with now. Turn it off any time on your subscription's page.
page-renew-after = Renew automatically: { MONEY($amount) } for { $months ->
    [one] { $months } month
   *[other] { $months } months
    } each time, next charge on { $date } from the card you paid with. Turn it off any time on your subscription's page.
page-renew-turn-on = Renew automatically
page-renew-on = Automatic renewal is on: the card is charged a day before the term ends. Turn it off any time on your subscription's page.

## Payment pages: the result

page-result-waiting = Waiting for the payment
page-result-waiting-detail = As soon as the payment service confirms the payment, this page will say so. It updates by itself.
page-result-paid = Paid. Thank you!
page-result-gift-detail = Your gift is ready: pass its link on to the person it is for.
page-result-gift = Your gift
page-result-gift-pass-on = Whoever opens this link first gets the subscription; it works once. We also mailed it to you.
page-result-gift-in-telegram = Or in Telegram:
page-result-paid-detail = Your access is ready: connect an app with the button below.
page-result-failed = The payment did not go through
page-result-failed-detail = No money was taken. Ask the shop or the bot for a new invoice to try again.
page-result-expired = The payment window has passed
page-result-expired-detail = Ask the shop or the bot for a new invoice to pay.
page-result-back-to-payment = Back to the payment

## Cabinet: webhooks

cabinet-webhooks-title = Webhook addresses
cabinet-api-reference = The API reference: every operation, its errors and the events with their bodies
cabinet-webhooks-intro = { $max ->
    [one] Up to { $max } address. Each receives the events you tick, signed with its own secret.
   *[other] Up to { $max } addresses. Each receives the events you tick, signed with its own secret.
    }
cabinet-webhooks-none = No addresses yet.
cabinet-webhooks-address = Address
cabinet-webhooks-events = Events
cabinet-webhooks-state = State
cabinet-webhooks-enabled = enabled
cabinet-webhooks-disabled = disabled
cabinet-webhooks-disabled-gone = disabled automatically: your server answered 410 Gone
cabinet-webhooks-disabled-failing = disabled automatically: five days without an accepted delivery
cabinet-webhooks-since = since { $at }
cabinet-webhooks-add-heading = Add an address
cabinet-webhooks-url = Address (https)
cabinet-webhooks-url-help = https on port 443, reachable from the internet.
cabinet-webhooks-add = Add the address
cabinet-webhooks-address-title = Webhook address
cabinet-webhooks-added-at = Added
cabinet-webhooks-disable = Disable
cabinet-webhooks-enable = Enable again
cabinet-webhooks-delivery-log = Delivery log
cabinet-webhooks-test = Test
cabinet-webhooks-test-help = Sends a webhook.test event now and shows your server's response code and time.
cabinet-webhooks-test-send = Send a test event
cabinet-webhooks-save-types = Save the events
cabinet-webhooks-secret = Signing secret
cabinet-webhooks-secret-help = Check the webhook-signature header of every event with it.
cabinet-webhooks-secret-show = Show the secret
cabinet-webhooks-secret-keep = Keep it on your server only.
cabinet-webhooks-rotate = Rotate the secret
cabinet-webhooks-replay = Replay
cabinet-webhooks-replay-help = Sends again the events this address did not accept, with a fresh schedule of attempts.
cabinet-webhooks-replay-days = Undelivered events of the last ... days
cabinet-webhooks-replay-button = Replay
cabinet-webhooks-not-found = There is no such address in your account.
cabinet-webhooks-all = All addresses
cabinet-webhooks-test-sent = Test event sent: response
cabinet-webhooks-test-no-response = no response
cabinet-webhooks-test-time = time { $ms } ms
cabinet-webhooks-test-wait = { $seconds ->
    [one] At most 5 test events a minute. Try again in { $seconds } second.
   *[other] At most 5 test events a minute. Try again in { $seconds } seconds.
    }
cabinet-webhooks-replayed = { $count ->
        [one] { $count } undelivered event
       *[other] { $count } undelivered events
    } of the last { $days ->
        [one] { $days } day
       *[other] { $days } days
    } { $count ->
        [one] is
       *[other] are
    } queued again.
cabinet-webhooks-rotated = A new secret is in use. Until { $until } events are signed with both the old and the new one: switch your server over by then.
cabinet-webhooks-enabled-again = The address is enabled. Events it missed while disabled can be replayed below.
cabinet-webhooks-added = The address is added.
cabinet-webhooks-disabled-now = The address is disabled; its pending events wait for a replay.
cabinet-webhooks-types-saved = The event types are saved.
cabinet-webhooks-refused-too-many = { $max ->
    [one] An account has at most { $max } address; remove or reuse it.
   *[other] An account has at most { $max } addresses; remove or reuse one.
    }
cabinet-webhooks-refused-not-a-url = not a valid URL: { $reason }
cabinet-webhooks-refused-credentials = credentials in the URL are not accepted
cabinet-webhooks-refused-no-host = the URL has no host
cabinet-webhooks-refused-not-https = only https:// addresses are accepted
cabinet-webhooks-refused-not-port-443 = only port 443 is accepted
cabinet-webhooks-refused-does-not-resolve = { $host } does not resolve: { $reason }
cabinet-webhooks-refused-no-address = { $host } does not resolve to any address
cabinet-webhooks-refused-not-public = { $host } resolves to { $ip }, which is not a publicly reachable address
cabinet-webhooks-refused-no-event-types = choose at least one event type
cabinet-webhooks-refused-unknown-type = unknown event type { $name }; one of { $types }
cabinet-webhooks-refused-replay-days = one of { $listed } or { $days }
cabinet-webhooks-refused-disabled = the endpoint is disabled; enable it first

## Cabinet: delivery log and events

cabinet-deliveries-title = Delivery log
cabinet-deliveries-failed-only = Failed attempts only
cabinet-deliveries-event-type = Event type
cabinet-deliveries-all = All
cabinet-deliveries-show = Show
cabinet-deliveries-none = No attempts match.
cabinet-deliveries-time = Time
cabinet-deliveries-event = Event
cabinet-deliveries-event-id = Event id
cabinet-deliveries-attempt = Attempt
cabinet-deliveries-response = Response
cabinet-deliveries-duration = Duration
cabinet-deliveries-no-response = no response
cabinet-deliveries-ms = { $ms } ms
cabinet-deliveries-older = Older attempts
cabinet-deliveries-event-title = Event
cabinet-deliveries-happened = Happened
cabinet-deliveries-body-note = The body exactly as it is sent, formatted for reading.

## Cabinet: balance and withdrawals

cabinet-balance-kind-share-credit = markup of a paid invoice
cabinet-balance-kind-share-reversal = markup reversed (payment recalled or refunded)
cabinet-balance-kind-withdrawal-hold = withdrawal requested: held
cabinet-balance-kind-withdrawal-approval = withdrawal approved
cabinet-balance-kind-withdrawal-release = withdrawal rejected: hold released
cabinet-balance-kind-withdrawal-payout = withdrawal paid out
cabinet-balance-when = When
cabinet-balance-entry = Entry
cabinet-balance-subject = Invoice or request
cabinet-balance-entry-available = Available
cabinet-balance-entry-held = Held
cabinet-balance-available = Available to withdraw
cabinet-balance-held = Held by open requests
cabinet-balance-total = Total owed to you
cabinet-balance-request = Request a withdrawal
cabinet-balance-amount = Amount, RUB
cabinet-balance-payout-details = Payout details
cabinet-balance-request-help = Up to the available balance. The amount is held at once; the platform pays it out to these details.
cabinet-balance-request-submit = Request the withdrawal
cabinet-balance-all-requests = All requests
cabinet-balance-ledger = Ledger
cabinet-balance-csv = Download the whole ledger (CSV)
cabinet-exports-title = Exports
cabinet-exports-from = From
cabinet-exports-to = To (included)
cabinet-exports-help = Days in the account's time zone, at most a year. The file is CSV (UTF-8, comma-separated, a header row); amounts have a dot and two decimals, times are in UTC.
cabinet-exports-invoices = Download the invoices (CSV)
cabinet-exports-clients = Download the new clients (CSV)
cabinet-exports-ledger = Download the ledger lines (CSV)
cabinet-exports-bad-range = Choose a from and a to day (YYYY-MM-DD), the to not before the from, at most { $days } days apart.
cabinet-balance-ledger-none = No entries yet.
cabinet-withdrawals-status-requested = requested, amount held
cabinet-withdrawals-status-approved = approved, to be paid
cabinet-withdrawals-status-rejected = rejected, hold released
cabinet-withdrawals-status-paid = paid
cabinet-withdrawals-title = Withdrawal requests
cabinet-withdrawals-none = No requests yet.
cabinet-withdrawals-request = Request
cabinet-withdrawals-requested = Requested
cabinet-withdrawals-amount = Amount
cabinet-withdrawals-status = Status
cabinet-withdrawals-refused-malformed = Amount: amount must look like 123 or 123.45 (at most two decimals).
cabinet-withdrawals-refused-too-large = Amount: amount is too large.
cabinet-withdrawals-refused-not-positive = Amount: amount must be greater than zero.
cabinet-withdrawals-refused-more-than-available = Amount: the amount is more than the available balance of { MONEY($available_amount) }.
cabinet-withdrawals-refused-no-details = Payout details: payout details are required.
cabinet-withdrawals-refused-details-too-long = Payout details: payout details must be at most { $max } characters.
cabinet-withdrawals-not-found = There is no such withdrawal request in your account.
cabinet-withdrawals-one = Withdrawal request
cabinet-withdrawals-made = The request is made and its amount is held. You will see here when it is paid.
cabinet-withdrawals-details = Payout details
cabinet-withdrawals-requested-by = Requested by
cabinet-withdrawals-last-step = Last step
cabinet-withdrawals-note = Platform's note
cabinet-withdrawals-ledger = Ledger entries

## Cabinet: clients

cabinet-clients-filter-all = all
cabinet-clients-filter-active = active
cabinet-clients-filter-expired = expired
cabinet-clients-filter-suspended = suspended
cabinet-clients-filter-none = never subscribed
cabinet-clients-status-none = no subscription
cabinet-clients-status-active = active
cabinet-clients-status-expired = expired
cabinet-clients-status-suspended = suspended
cabinet-clients-status-trial = { $status } (trial)
cabinet-clients-lifetime = lifetime
cabinet-clients-search-missing = No client of yours has the id
cabinet-clients-client-id = client_id
cabinet-clients-subscription = Subscription
cabinet-clients-until = Until
cabinet-clients-since = Since
cabinet-clients-none = No clients here.
cabinet-clients-more = More clients
cabinet-clients-find = Find a client by client_id
cabinet-clients-find-submit = Find
cabinet-clients-filter = Subscription status
cabinet-clients-not-found = There is no such client in your account.
cabinet-clients-all = All clients
cabinet-clients-one = Client
cabinet-clients-blocked = Blocked by the platform.
cabinet-clients-unlimited = unlimited
cabinet-clients-devices-allowed = Devices allowed
cabinet-clients-link = Subscription link
cabinet-clients-trial = Trial available
cabinet-clients-yes = yes
cabinet-clients-no = no
cabinet-clients-client-since = Client since
cabinet-clients-reachable-in-telegram = Reachable in Telegram
cabinet-clients-bot-customer = bot customer
cabinet-clients-bot-started = Started the bot
cabinet-clients-bot-last-seen = Last used the bot
cabinet-clients-devices = Devices
cabinet-clients-devices-count = Devices ({ $count })
cabinet-clients-devices-unavailable = The VPN panel cannot be asked right now; try again later.
cabinet-clients-devices-none = No devices connected.
cabinet-clients-hwid = HWID
cabinet-clients-device = Device
cabinet-clients-connected = Connected
cabinet-clients-invoices = Invoices
cabinet-clients-invoices-none = No invoices yet.
cabinet-clients-invoices-newest = The newest invoices are shown.
cabinet-clients-invoice-plan = plan { $plan }
cabinet-clients-invoice-devices = devices +{ $count }
cabinet-clients-invoice-pending = awaiting payment
cabinet-clients-invoice-paid = paid
cabinet-clients-invoice-failed = failed
cabinet-clients-invoice-expired = expired
cabinet-clients-payment-id = payment_id
cabinet-clients-created = Created
cabinet-clients-for = For
cabinet-clients-customer-paid = Customer paid
cabinet-clients-markup = Your markup
cabinet-clients-status = Status
## Notices to partners (cabinet and messenger)

notice-endpoint-disabled = { $brand }: webhook address { $url } was disabled because { $reason ->
        [gone] it answered 410 Gone
       *[other] no attempt was accepted for five days
    }. Fix the receiver, re-enable the address in the cabinet and replay the events you missed.
notice-withdrawal-paid = { $brand }: withdrawal { $withdrawal } of { MONEY($amount) } was paid out.
notice-chat-linked = This chat now receives the notices of { $brand }.
notice-chat-link-expired = This link has expired or was used. Press "Link Telegram" in the cabinet again.
bot-create-offer = Let's create the Telegram bot of { $brand }. Press the button below, check the name and username Telegram suggests, and confirm: the bot is connected to your account at once, with no token to copy.
bot-create-button = Create my bot
bot-create-link-expired = This link has expired or was used. Ask for a new "Create my bot" link in the cabinet.
bot-create-link-taken = Someone else opened this link first, so it is theirs. Ask for a new "Create my bot" link in the cabinet.
bot-create-already = { $brand } already has the bot @{ $bot }. Disconnect it in the cabinet first to connect another.
bot-create-connected = Done: @{ $bot } is now the bot of { $brand }. Its name, description and commands appear within a minute, and customers can buy in it right away.
bot-create-open = Open @{ $bot }
bot-create-no-link = This bot is not connected to any account. Open the "Create my bot" link from the cabinet first, then create the bot with the button it shows.
bot-create-taken = This bot is connected to another account already.

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
api-error-promo-code-not-found = There is no such promo code.
api-error-promo-code-expired = The promo code has expired or was turned off.
api-error-promo-code-used-up = The promo code has been used as many times as it may be.
api-error-promo-code-not-applicable = The promo code does not apply to this purchase.
api-error-not-found = No such endpoint.
api-error-method-not-allowed = The endpoint does not support this method.
api-error-unsupported-media-type = The body must be sent as application/json.
api-error-payload-too-large = The request body is too large.

## Partner API texts

api-download-label = Download { $app } for { $platform }

## A partner's bot: its profile in Telegram

bot-profile-short = { $brand }: your VPN subscription, how to connect, reminders.
bot-profile-description = { $brand } runs this bot: see your VPN subscription and devices, get the connection link, and be reminded before your access ends.
bot-profile-description-support = { $brand } runs this bot: see your VPN subscription and devices, get the connection link, and be reminded before your access ends. Support: { $support }
bot-help = This is the { $brand } bot.
    /status: your subscription and devices
    /connect: the link to connect with
    /language: Русский / English
    /stop: no more messages in this chat
    To link your subscription, press "Get reminders in Telegram" on your subscription page.
bot-help-support = Questions: { $support }
bot-linked = Done: this chat now gets the reminders of { $brand }.
bot-link-expired = This link has expired or was used already. Press "Get reminders in Telegram" on your subscription page again.
bot-not-linked = No subscription is linked to this chat yet. Press "Get reminders in Telegram" on your subscription page.
bot-language-set = This chat now reads English.
bot-stopped = Done: { $brand } sends no more messages to this chat. To link it again, press "Get reminders in Telegram" on your subscription page.
# A chat's subscriptions: one is "yours", several go by number in the order they were linked ($number).
bot-subscription-yours = Your subscription
bot-subscription-numbered = Subscription { $number }
bot-subscription-not-yet = Not taken out yet.
# $subscription is "Your subscription" or "Subscription 2".
bot-connect = { $subscription }. Add this link to your VPN app: { $link }
bot-connect-button = Open the connect page
bot-reminder-expiring = { $brand }: your subscription ends on { DATE($day) }, { $days ->
    [one] { $days } day left.
   *[other] { $days } days left.
}
bot-reminder-expired = { $brand }: your subscription has ended, and the VPN is off. Renew it to connect again.
bot-reminder-auto-renewal = Automatic renewal is on: { MONEY($amount) } will be charged on { DATE($day) }. To turn it off, open your subscription's page.
bot-renewal-declined-retry = { $brand }: the card did not pay { MONEY($amount) } to renew your subscription. We will try again on { DATE($day) }, or renew it now.
bot-renewal-declined-last = { $brand }: the card did not pay { MONEY($amount) } to renew your subscription, and we will not try again. It ends on { DATE($day) }: renew it to keep the VPN on.
bot-traffic-most-used = { $brand }: you have used { $percent } % of your subscription's traffic ({ $limit }).
bot-traffic-used-up = { $brand }: you have used all of your subscription's traffic ({ $limit }), and the VPN is paused.
bot-traffic-resets = The count starts again on { DATE($day) }.
bot-traffic-renew = Renewing the subscription starts the count again.
bot-reminder-renew = Renew
bot-reminder-support = Contact support
page-renewal-title = Automatic renewal
page-renewal-on = On: the card you paid with is charged a day before the term ends, and the term goes on. Turn it off here at any time.
page-renewal-turn-off = Turn off automatic renewal
page-renewal-off-done = Automatic renewal is off: nothing more will be charged.
page-renewal-off-under-way = Automatic renewal is off. A charge that had already started completes and renews this term; nothing after it will be charged.
page-reminders-telegram = Get reminders in Telegram
page-reminders-telegram-hint = The { $brand } bot reminds you before your access ends and shows your subscription.
page-reminders-telegram-open = Open in Telegram
bot-command-start = Start and link your subscription
bot-command-status = Your subscription: until when, devices
bot-command-connect = How to connect
bot-command-help = Help and documents
bot-command-language = Change the language
bot-command-stop = Stop the reminders

## The partner's bot: its shop

shop-welcome = Welcome to { $brand }! Choose what you need below.
shop-menu-plans = Buy a subscription
shop-menu-new-subscription = ➕ New subscription
shop-extend-which = Which subscription shall we extend? Or start a new one: it gets its own link and its own devices, for a router or someone in your family.
shop-extend-current = Extend my subscription
shop-extend = Extend: { $name }
shop-subscriptions = Your subscriptions:
shop-subscription-named = “{ $name }”
shop-new-subscription-ask = What shall we call the new subscription? Write a name of up to { $max } characters, such as Router or Mum.
shop-new-subscription-name-refused = A name is 1 to { $max } characters on one line. Please write another.
shop-new-subscription-too-many = You hold { $count } subscriptions already, the most one person can.
shop-menu-trial = Try it free
shop-menu-subscription = My subscription
shop-menu-devices = My devices
shop-menu-help = Help and documents
shop-menu-language = Русский
shop-menu-back = Back to the menu
shop-plans = { $brand }: choose a plan.
shop-plans-none = Nothing is on sale right now. Please come back later.
shop-plan = { $term }: { MONEY($price) }
# $offer is the plan with its price; $percent is what it saves against paying monthly, whole percent.
shop-plan-saving = { $offer } (−{ $percent } %)
shop-term-with-traffic = { $term }, { $traffic }
shop-term-months = { $count ->
    [one] { $count } month
   *[other] { $count } months
    }
shop-term-lifetime = Lifetime
shop-device-offer = Extra devices: { MONEY($price) } each ({ $included } included, at most { $max } in all).
shop-devices-choose = How many devices to add? { MONEY($price) } each.
shop-devices-count = { $count ->
    [one] +{ $count } device
   *[other] +{ $count } devices
    }: { MONEY($amount) }
shop-choose-method = How would you like to pay?
shop-email-ask = Where should we send the receipt for your payment? Write your email address in this chat (once), then choose again.
shop-email-saved = Thank you: receipts go to { $email }. To change it, write another address.
shop-invoice = { $what }: { MONEY($amount) }. Pay within { $minutes } min (by { $time }).
shop-invoice-closed = That invoice can no longer be paid. Please choose again.
shop-pay = Pay { MONEY($amount) }
shop-paid = Payment received, thank you! { $brand }: your subscription is active until { DATE($day) }.
shop-paid-lifetime = Payment received, thank you! { $brand }: your subscription never ends.
shop-connect = Add this link to your VPN app: { $link }
    Or scan the QR code with another device.
shop-connect-page = Open the connect page
shop-subscription-none = You have no subscription yet.
shop-renew-on = Renew automatically
shop-renew-consent = Renew automatically? { MONEY($amount) } for { $months ->
    [one] { $months } month
   *[other] { $months } months
    } each time, next charge on { DATE($day) } from the card you pay with. Turn it off any time in "My subscription".
shop-renew-on-done = Automatic renewal will be on once you pay. Turn it off any time in "My subscription".
shop-renew-on-now = Automatic renewal is on. Turn it off any time in "My subscription".
shop-auto-renew-on = Automatic renewal: on, { MONEY($amount) } will be charged on { DATE($day) }.
shop-auto-renew-off = Turn off automatic renewal
shop-auto-renew-off-done = Automatic renewal is off: nothing more will be charged. Your subscription runs to its end, and you can renew it yourself.
shop-auto-renew-off-under-way = Automatic renewal is off. A charge that had already started completes and renews this term; nothing after it will be charged.
shop-stars-invoice = { $what }: { $stars } ⭐ (Telegram Stars). Pay within { $minutes } min (by { $time }).
shop-stars-pay = Pay { $stars } ⭐
shop-stars-subscription = This is a monthly Telegram Stars subscription: Telegram charges { $stars } ⭐ every 30 days until you cancel it in "My subscription".
shop-stars-renewing = Telegram Stars subscription: { $stars } ⭐ will be charged around { DATE($day) }.
shop-checkout-not-payable = This invoice can no longer be paid. Please choose a plan again in the bot.
shop-checkout-amount-changed = The price of this invoice has changed. Please choose a plan again in the bot.
shop-checkout-blocked = Payments are not available for your account.
shop-renew = Renew
shop-add-devices = Add devices
shop-connect-button = Connect
shop-new-link = New link
shop-new-link-done = Done: here is your new link. The old one no longer works.
shop-new-link-too-soon = The link was changed less than an hour ago. Try again in { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
    }.
shop-trial-started = Your free trial is on.
shop-trial-used = You have already had a subscription, so the free trial is not available.
shop-trial-off = { $brand } offers no free trial right now.
shop-trial-daily-limit = Today's free trials are all taken. Please try again tomorrow.
shop-try-later = { $brand } cannot do this right now. Please try again in a few minutes.
shop-too-fast = Too many requests right now. Please try again in { $seconds } s.
shop-blocked = Sorry, { $brand } cannot serve you. Please contact support.
shop-devices = Your devices: { $used } of { $limit }.
shop-devices-unlimited = Your devices: { $used }, no limit.
shop-devices-none = No devices are connected yet.
shop-device = { $name }, added { DATE($day) }
shop-device-remove = Remove { $name }
shop-device-confirm = Remove { $name }? It is disconnected and its slot is freed.
shop-device-confirm-yes = Yes, remove it
shop-device-removed = { $name } is removed.
shop-device-list-old = That list is out of date; here is the current one.
shop-device-unknown = Device
shop-in-progress = Still working on it: please wait a moment.
shop-lifetime-owned = Your subscription is for life: there is nothing to renew.
shop-help = { $brand }: buy and renew your VPN here, connect your devices and get reminded before your access ends.
shop-documents-terms = Terms of service and refunds
shop-documents-privacy = Privacy policy
shop-support = Contact support
shop-devices-not-for-sale = Extra devices are not sold right now.
shop-devices-at-limit = You already have the most devices allowed.
shop-devices-no-limit = Your subscription has no device limit.
shop-needs-subscription = This needs an active subscription.
shop-new-clients-limit = { $brand } cannot take new customers today. Please try again tomorrow.
notice-bot-disconnected = { $brand }: Telegram no longer accepts the token of the bot @{ $bot } (it was revoked in BotFather). The bot is disconnected: connect it again with a new token.

## Cabinet: Telegram bot

cabinet-section-bot = Telegram bot
cabinet-section-promotions = Promotions
cabinet-clients-invoice-promo = code { $code }: { MONEY($amount) } off
cabinet-clients-invoice-promo-days = code { $code }: { $days } extra days
cabinet-overview-promos = { MONEY($amount) } given in discounts, { $used ->
    [one] in one paid order
   *[other] in { $used } paid orders
}
cabinet-action-promo-created = Promo code created
cabinet-action-promo-disabled = Promo code turned off
cabinet-action-referrals-set = Referral days set
cabinet-referrals = Referral program
cabinet-referrals-intro = “Invite a friend” in your bot gives each customer a personal link. When someone new comes through it and pays for the first time, the customer gets the days below: added to their running subscription, or to their next purchase. A refund of that payment takes them back.
cabinet-referrals-days = Days per invited customer
cabinet-referrals-days-help = 0 turns the program off; at most 365.
cabinet-referrals-save = Save
cabinet-referrals-saved = Referral days saved.
cabinet-referrals-refused = Days per invited customer are a whole number from 0 to { $max }.
cabinet-referrals-figures = Invited: { $count }. Paid: { $used }. Days given: { $days }.
cabinet-referrals-top = Top inviters
cabinet-referrals-inviter = Customer
cabinet-referrals-invited = Invited
cabinet-referrals-paid = Paid
cabinet-referrals-days-given = Days given
cabinet-overview-referrals = Days given: { $days }. Invited: { $count }.
cabinet-gift-intro = Subscriptions your customers bought as gifts in your bot or web shop. The buyer pays as for any purchase (you hear payment.succeeded for the buyer's client); whoever redeems the link gets the plan's term. A gift nobody redeems lapses a year after its payment; until then you can refund it.
cabinet-gift-none = No gifts bought yet.
cabinet-gift-bought = Bought
cabinet-gift-plan = Plan
cabinet-gift-amount = Paid
cabinet-gift-buyer = Buyer
cabinet-gift-recipient = Mailed to
cabinet-gift-state = State
cabinet-gift-unpaid = Not paid
cabinet-gift-waiting = Waiting, until { $until }
cabinet-gift-refund = Refund to the buyer
cabinet-gift-redeemed = Redeemed { $at } by
cabinet-gift-was-refunded = Refunded { $at }
cabinet-gift-lapsed = Lapsed { $at }
cabinet-gift-refunded = The gift is refunded to its buyer and no longer works.
cabinet-gift-unknown = No gift of this account has that payment.
cabinet-gift-refund-redeemed = This gift was redeemed already: it cannot be refunded.
cabinet-gift-refund-refunded = This gift was refunded already.
cabinet-gift-refund-lapsed = This gift lapsed unredeemed: it is not refunded.
cabinet-gift-refund-failed = The refund did not go through, and the gift still waits: { $reason }
cabinet-promo-intro = Promo codes your customers type in your bot or web shop, or your servers send as promo_code. A discount comes out of your markup: it can never take a price below the platform's.
cabinet-promo-none = No promo codes yet.
cabinet-promo-new = New promo code
cabinet-promo-created = Promo code { $code } created.
cabinet-promo-disabled = Promo code { $code } turned off.
cabinet-promo-percent-off = { $percent }% off
cabinet-promo-amount-off = { MONEY($amount) } off
cabinet-promo-extra-days = { $days } extra days
cabinet-promo-max-uses = up to { $max } uses
cabinet-promo-no-max = no limit of uses
cabinet-promo-per-customer = { $count } per customer
cabinet-promo-first-only = first purchase only
cabinet-promo-plans-only = plans { $plans } only
cabinet-promo-until = until { $at }
cabinet-promo-uses = { MONEY($amount) } given in discounts, { $count } waiting for payment; { $used ->
    [one] used once.
   *[other] used { $used } times.
}
cabinet-promo-is-disabled = Turned off.
cabinet-promo-disable = Turn off { $code }
cabinet-promo-create = Create the code
cabinet-promo-code-help = 4 to 32 letters, digits and dashes; customers may type it in any case.
cabinet-promo-field-code = Code
cabinet-promo-field-kind = What it gives
cabinet-promo-kind-percent = Percent off
cabinet-promo-kind-amount = Roubles off
cabinet-promo-kind-days = Extra days
cabinet-promo-field-value = How much (percent, roubles or days)
cabinet-promo-field-max-uses = Uses in all (empty: no limit)
cabinet-promo-field-per-customer = Uses per customer
cabinet-promo-field-first-purchase-only = Only for customers who never paid
cabinet-promo-field-plans = Plans (none ticked: every plan)
cabinet-promo-field-expires = Last day (empty: no end)
cabinet-promo-refused-fields = Please check: { $fields }.
cabinet-promo-refused-malformed = A code is 4 to 32 letters, digits and dashes.
cabinet-promo-refused-taken = You already have the code { $code }.
cabinet-promo-refused-plan = There is no plan { $plan } on sale.
cabinet-promo-refused-below = The discount takes plan { $plan } { MONEY($amount) } below the platform's price: make it smaller, or raise your markup.
cabinet-promo-refused-past = The last day has passed already.
cabinet-promo-refused-zero = A limit of uses is at least 1.
cabinet-action-bot-connected = Telegram bot connected
cabinet-action-bot-disconnected = Telegram bot disconnected
cabinet-action-bot-token-replaced = Telegram bot token replaced
cabinet-action-renewal-link-set = Renewal link changed
cabinet-action-auto-renew-off = Automatic renewal turned off for a client
cabinet-bot-intro = Your own Telegram bot, run by the platform under your brand: it carries your name, descriptions and commands, and your customers buy, try, pay, connect and manage their devices there, and get their reminders.
cabinet-bot-bot = Bot
cabinet-bot-status = Status
cabinet-bot-status-connected = connected since { $at }
cabinet-bot-status-revoked = Telegram stopped accepting its token on { $at } (revoked in BotFather): connect a new token below.
cabinet-bot-profile = Name and descriptions in Telegram
cabinet-bot-profile-in-sync = up to date with your brand
cabinet-bot-profile-updating = being updated (Telegram takes them in turn)
cabinet-bot-reminders = Reminders to your customers
cabinet-bot-reminders-intro = Customers who press "Get reminders in Telegram" on their subscription page are reminded by your bot 72 and 24 hours before their access ends and when it ends, with a button to renew.
cabinet-bot-renewal = Renewal link
cabinet-bot-renewal-help = An https address where customers renew. Empty: the button leads to your support address, or there is none.
cabinet-bot-renewal-save = Save the link
cabinet-bot-renewal-saved = The renewal link is saved.
cabinet-bot-renewal-refused = The renewal link must be an https:// address without spaces or quotes.
cabinet-bot-disconnect = Disconnect the bot
cabinet-bot-new-token = Connect a new token
cabinet-bot-token = Token from BotFather
cabinet-bot-token-help = Create a bot with @BotFather in Telegram, copy the token it gives and paste it here. It is checked with Telegram and kept encrypted; nobody will see it again, here or anywhere.
cabinet-bot-connect = Connect the bot
cabinet-bot-connected = The bot is connected. Its name and descriptions are being set to your brand.
cabinet-bot-disconnected = The bot is disconnected; the platform has forgotten its token.
cabinet-bot-refused-malformed = This is not a bot token: BotFather gives one like 123456789:AAE… (digits, a colon, then letters and digits).
cabinet-bot-refused-rejected = Telegram does not accept this token. Copy it again from BotFather (/token).
cabinet-bot-refused-taken = This bot is connected to another account.
cabinet-bot-refused-already = Your account already has the bot @{ $bot }: disconnect it first.
cabinet-bot-refused-unavailable = Telegram did not answer, so nothing was connected. Try again in a minute.
cabinet-bot-create = Create my bot in Telegram
cabinet-bot-create-help = No BotFather, no token to copy: Telegram creates the bot for you, with your brand's name, and it is connected here at once. Press the button, open the link on the phone where you use Telegram, and confirm.
cabinet-bot-create-button = Create my bot in Telegram
cabinet-bot-create-open-help = Open this link in Telegram and press "Create my bot" there; check the name and username Telegram suggests and confirm. Then come back to this page: your bot is here.
cabinet-bot-create-open = Open Telegram
cabinet-bot-create-valid = The link works once, for the first person who opens it, until { $at }.
cabinet-bot-create-off = The platform's bot @{ $bot } cannot create bots yet: Bot Management Mode must be switched on for it in @BotFather's Mini App (Bot Settings). Ask the platform's operator, or connect a bot with its token below.
cabinet-bot-create-unavailable = Telegram did not answer, so no link was made. Try again in a minute.
cabinet-bot-or-token = Or connect a bot made in BotFather
cabinet-bot-rotate = Replace the token
cabinet-bot-rotate-help = Telegram gives the bot a new token and stops accepting the old one; the platform switches to the new one at once. Nobody needs to copy it.
cabinet-bot-rotated = The token is replaced: Telegram no longer accepts the old one.
cabinet-bot-rotate-unavailable = Telegram did not answer, so the token may not have been replaced. The bot keeps working either way; try again in a minute.

## Mail (docs/decisions.md, "Mail")
mail-test-subject = Test message from { $brand }
mail-test-body = This message checks that mail from { $brand } reaches you. There is nothing to do.
mail-invitation-subject = { $brand }: your access to the partner cabinet
mail-invitation-body = You are invited to the { $brand } partner cabinet. Open the link to set your password.
mail-reset-subject = { $brand }: set a new password for the partner cabinet
mail-reset-body = A new password was asked for your { $brand } partner cabinet account. Open the link to set it; your old password works until then.
mail-operator-invitation-subject = { $brand }: your access to the operator's view
mail-operator-invitation-body = You are invited to the { $brand } operator's view: every partner's sales and what the platform owes them. Open the link to set your password.
mail-operator-reset-subject = { $brand }: set a new password for the operator's view
mail-operator-reset-body = A new password was asked for your { $brand } operator's view account. Open the link to set it; your old password works until then.
mail-link-until = The link works once, until { $until }.
mail-invitation-button = Set the password
mail-order-subject = { $brand }: your order is paid
mail-order-paid = Payment received, thank you. Order { $order }: { $what }, { MONEY($amount) }, paid { $when }.
mail-order-until = Your subscription is active until { DATE($day) }.
mail-order-lifetime = Your subscription never ends.
mail-order-shop = Your subscription, devices and receipts: { $shop }
mail-gift-bought-subject = { $brand }: your gift is ready
mail-gift-bought = Thank you: your gift of { $what } of { $brand } is paid. Pass the link below to the person it is for; whoever opens it first gets the subscription.
mail-gift-received-subject = { $brand }: a gift for you
mail-gift-received = Someone gave you { $what } of { $brand } VPN. Open the link below to start it (or to add it to your subscription).
mail-gift-until = The gift can be redeemed once, until { $until }.
mail-gift-in-telegram = In Telegram: { $link }
mail-gift-button = Redeem the gift
mail-trial-subject = { $brand }: your free trial has started
mail-trial-started = Your free trial has started. It runs until { $until }.
mail-trial-connect = Open the connect page on the device you want to use: it shows the apps and the link to add.
mail-sign-in-subject = { $brand }: your sign-in code { $code }
mail-sign-in-body = Your code to sign in to { $brand }: { $code }
mail-sign-in-until = It works once, until { $until }. You can also sign in with the button.
mail-sign-in-not-you = If you did not ask for it, ignore this message: nobody can sign in without it.
mail-sign-in-button = Sign in

## The web shop (docs/decisions.md, "The web shop")
shop-page-title = { $brand }: VPN subscription
shop-page-plans = Plans
shop-page-trial = New here? Try it free for { $hours ->
    [one] { $hours } hour
   *[other] { $hours } hours
    }.
shop-page-trial-by-email = Start it with your email
shop-page-trial-or = or
shop-page-trial-in-bot-too = in Telegram
shop-page-buy-in-bot = Buy in Telegram
shop-page-documents = Documents
shop-form-email = Email
shop-form-email-hint = Your order and the connect link are sent to this address.
shop-form-method = How to pay
shop-form-gift-legend = A gift?
shop-form-gift = This is a gift: I get a link to pass on
shop-form-recipient = The recipient's email (optional)
shop-form-recipient-hint = We mail them the gift's link once it is paid. Leave it empty to pass the link on yourself.
shop-form-recipient-invalid = Enter the recipient's email address, or leave it empty.
shop-form-buy = Go to payment
shop-form-fix = Please check the form.
shop-form-promo = Promo code (if you have one)
shop-promo-button = 🎟 I have a promo code
shop-promo-ask = Send the promo code as a message.
shop-promo-kept = Your promo code { $code } will be applied when you choose a plan.
shop-menu-invite = 🎁 Invite a friend
shop-invite = Your personal link for friends:
    { $link }
    When someone new to us comes through it and pays for the first time, you get { $days ->
        [one] { $days } day of VPN for free.
       *[other] { $days } days of VPN for free.
    }
shop-invite-share = Share the link
shop-menu-gift = 💝 Gift a subscription
shop-gift-plans = Which plan would you like to give? After paying you get a link to pass on: whoever opens it first gets the subscription (or adds it to theirs).
shop-gift-invoice = 💝 A gift: { $what }. After paying you get its link to pass on.
shop-gift-paid = 💝 Payment received, thank you! Your gift of { $what } of { $brand } is ready. Send the person it is for this link:
shop-gift-link-bot = In Telegram: { $link }
shop-gift-link-web = On the web: { $link }
shop-gift-until = It can be redeemed once, until { DATE($day) }.
shop-gift-share = Send the gift
shop-gift-redeemed = 💝 The gift is yours: { $brand } added it to your subscription.
shop-gift-unknown = This gift link does not work: check that it was copied whole.
shop-gift-used = This gift was redeemed already: a gift works once.
shop-gift-refunded = This gift was refunded to the one who bought it, so it no longer works.
shop-gift-lapsed = This gift was not redeemed in time and no longer works.
shop-account-invite = Send your personal link to friends. When someone new to us comes through it into our Telegram bot and pays for the first time, you get { $days ->
    [one] { $days } day of VPN for free.
   *[other] { $days } days of VPN for free.
}
shop-invite-needs-client = Your personal invite link appears once you have a subscription or a trial.
shop-invited = 🎁 A friend invited you.
bot-stars-renewal-off = { $brand }: automatic renewal in Telegram is off; no more Stars will be charged. Your subscription runs until { DATE($day) }, and you can renew it in the bot.
bot-stars-renewal-on = { $brand }: automatic renewal in Telegram is on again. Your subscription runs until { DATE($day) }; then Telegram charges the next month in Stars.
bot-stars-renewal-failed = { $brand }: Telegram could not charge the next month in Stars, so automatic renewal is off. Your subscription runs until { DATE($day) }; renew it in the bot with “Buy a subscription”.
bot-referral-days = { $brand }: a friend you invited has paid, thank you! Your subscription now ends on { DATE($day) }: { $days ->
    [one] { $days } day added.
   *[other] { $days } days added.
}
bot-referral-credit = { $brand }: a friend you invited has paid, thank you! { $days ->
    [one] { $days } day will be added to your next purchase.
   *[other] { $days } days will be added to your next purchase.
}
shop-promo-full-price = The price below is without it.
shop-form-promo-invalid = A promo code is 4 to 32 letters, digits and dashes.
promo-refused-unknown = There is no such promo code. Check it, or buy without it.
promo-refused-expired = This promo code has expired.
promo-refused-used-up = This promo code has been used up.
promo-refused-not-applicable = This promo code does not apply to this purchase.
shop-form-email-invalid = Enter an email address such as name@example.com.
shop-form-plan-invalid = Choose one of the plans.
shop-form-method-invalid = Choose how to pay.
shop-form-stale = This form was already sent with other details. Please check them and send it again.
shop-sign-in-title = Sign in
shop-sign-in-lead = Enter the email you bought with. We send you a code and a link to sign in; no password needed.
shop-sign-in-send = Send the code
shop-sign-in-code-title = Enter the code
shop-sign-in-code-sent = We sent a six-digit code to { $email }. It works for 10 minutes.
shop-sign-in-code = Code
shop-sign-in-enter = Sign in
shop-sign-in-code-help = No message? Look in the spam folder, or ask for a new code.
shop-sign-in-again = Ask for a new code
shop-sign-in-too-many = Too many codes were asked for. Please try again in { $minutes } min.
shop-sign-in-wrong = That is not the code. { $tries ->
    [one] { $tries } try left.
   *[other] { $tries } tries left.
    }
shop-sign-in-spent = This code or link no longer works. Please ask for a new code.
shop-form-expired = This form has expired. Please start again.
shop-gift-title = A gift from { $brand }
shop-gift-redeem-until = Redeem it once, until { $until }: it starts your subscription, or adds to the one you have.
shop-gift-redeem = Redeem for { $email }
shop-gift-redeem-hint = The subscription is the one of this address: you find it in your account afterwards.
shop-gift-sign-in = Sign in with your email to redeem it: we send you a code.
shop-gift-sign-in-button = Sign in to redeem
shop-gift-waiting = A gift is waiting for you.
shop-gift-open = Open the gift
shop-account-subscriptions = Your subscriptions:
shop-account-subscription-numbered = Subscription { $number }
shop-account-subscription-named = «{ $name }»
shop-account-buy-title = Buy or renew
shop-account-buy-for = For which subscription
shop-account-buy-new = A new subscription, named:
shop-account-new-name = Its name (for example Router or Mum), up to { $max } characters
shop-account-name-refused = Give the new subscription a name of 1 to { $max } characters, or choose one you have. A customer holds at most { $count } subscriptions.
shop-account-no-such-subscription = That subscription is not yours.
shop-account-title = Your account
shop-account-to-shop = Back to the shop
shop-account-buy = Choose a plan
shop-account-trial = New here? Try it free for { $hours ->
    [one] { $hours } hour
   *[other] { $hours } hours
    }: the subscription starts at once, and nothing is charged.
shop-account-trial-start = Start the free trial
shop-account-subscription = Subscription
shop-account-auto-renew-on = Automatic renewal is on.
shop-account-auto-renew-manage = Turn it off on the subscription page
shop-account-new-link-help = A new link stops the old one: your devices must be connected again with the new one.
shop-account-device-removed = The device is removed.
shop-account-no-such-device = You have no such device.
shop-account-receipts = Receipts
shop-account-sign-out = Sign out
shop-page-account = My account
cabinet-section-broadcasts = Broadcasts
cabinet-sales = Sales
cabinet-sales-ranges = The period shown
cabinet-sales-range-7d = 7 days
cabinet-sales-range-30d = 30 days
cabinet-sales-range-90d = 90 days
cabinet-sales-range-this-month = This month
cabinet-sales-range-last-month = Last month
cabinet-sales-period = { DATE($from) } to { DATE($to) }, against the period of the same length before
cabinet-sales-figure = Figure
cabinet-sales-this-period = This period
cabinet-sales-before = Before
cabinet-sales-change = Change
cabinet-sales-gross = Customers paid
cabinet-sales-share = Your share
cabinet-sales-paid = Invoices paid
cabinet-sales-refunded = Refunded
cabinet-sales-new-clients = New clients
cabinet-sales-trials = Trials started
cabinet-sales-chart = What customers paid per day, { DATE($from) } to { DATE($to) }
cabinet-sales-as-table = The days as a table
cabinet-sales-day = Day
cabinet-sales-methods = By payment method
cabinet-sales-method = Method
cabinet-sales-declined = Declined
cabinet-sales-success = Went through
cabinet-sales-none = No invoices in this period.
cabinet-sales-help = Days in your time zone; an invoice counts on the day it was issued, a refund takes its amount out. The figures are brought up to date every few minutes.
cabinet-sales-first-purchases = First purchases
cabinet-sales-converted = Trials converted to a purchase
cabinet-sales-renewals-manual = Renewals paid by hand
cabinet-sales-renewals-card = Renewals by a saved card
cabinet-sales-renewals-stars = Renewals in Telegram Stars
cabinet-sales-ended = Subscriptions ended
cabinet-sales-channels = By channel
cabinet-sales-channel = Channel
cabinet-sales-channel-api = Your API
cabinet-sales-channel-bot = Bot shop
cabinet-sales-channel-web = Web shop
cabinet-sales-channels-chart = What customers paid by channel, { DATE($from) } to { DATE($to) }
cabinet-sales-gross-before = Paid before
cabinet-sales-promotions = Promo codes and referrals
cabinet-sales-promo-discount = Discount given by promo codes
cabinet-sales-promo-gross = Paid on invoices with a promo code
cabinet-sales-referral-rewards = Inviters rewarded
cabinet-sales-referred-gross = Paid by invited customers
cabinet-sales-channels-help = A client counts in the channel it came through: the bot shop when your bot knows the person, the web shop when it knows the address, otherwise your API. An ended subscription is one whose paid term ran out and was not renewed since.
cabinet-section-gifts = Gifts
cabinet-broadcast-intro = A message from your bot to your customers, in each one's language, at the pace Telegram allows while your bot keeps answering. A preview comes first: to the chats you linked on the Notices page, through your bot, and on this page.
cabinet-broadcast-new = New broadcast
cabinet-broadcast-field-text = Text
cabinet-broadcast-text-help = Plain text as your bot sends it, up to { $max } characters. It goes to everyone who has no Russian text below.
cabinet-broadcast-field-text-ru = Text in Russian (optional)
cabinet-broadcast-text-ru-help = For customers whose bot speaks Russian.
cabinet-broadcast-field-button-text = Button label (optional)
cabinet-broadcast-field-button-url = Button link (optional)
cabinet-broadcast-button-help = A button under the message opens this https address; give both the label and the link, or neither.
cabinet-broadcast-field-audience = Who gets it
cabinet-broadcast-audience-all = Everyone who started your bot
cabinet-broadcast-audience-active = Paid subscription running
cabinet-broadcast-audience-expired = Subscription ended
cabinet-broadcast-audience-trial = Trial running
cabinet-broadcast-audience-never-paid = Never paid
cabinet-broadcast-preview-button = Preview
cabinet-broadcast-preview = Preview
cabinet-broadcast-preview-ru = In Russian:
cabinet-broadcast-preview-delivered = { $count ->
    [one] Your bot sent the preview to your linked chat.
   *[other] Your bot sent the preview to your { $count } linked chats.
    }
cabinet-broadcast-preview-refused = Your bot could not write to chat { $chat }: open @{ $bot } there and press Start, then preview again. Telegram said: { $reason }
cabinet-broadcast-preview-no-chat = No chat is linked to get previews in Telegram; link one on the page
cabinet-broadcast-will-reach = { $count ->
    [one] It will go to { $count } customer ({ $audience }).
   *[other] It will go to { $count } customers ({ $audience }).
    }
cabinet-broadcast-nobody = Nobody is in this audience now ({ $audience }); nothing to send.
cabinet-broadcast-send = { $count ->
    [one] Send to { $count } customer
   *[other] Send to { $count } customers
    }
cabinet-broadcast-sent = The broadcast is being sent. Its counts below grow as it goes.
cabinet-broadcast-changed = The broadcast is changed.
cabinet-broadcast-list = Sent broadcasts
cabinet-broadcast-none = No broadcasts yet.
cabinet-broadcast-counts = Sent: { $count } · Blocked the bot: { $blocked_count } · Failed: { $failed_count } · Left: { $left_count }
cabinet-broadcast-state-sending = sending
cabinet-broadcast-state-paused = paused
cabinet-broadcast-state-cancelled = cancelled
cabinet-broadcast-state-done = done
cabinet-broadcast-pause = Pause
cabinet-broadcast-resume = Resume
cabinet-broadcast-cancel = Cancel
cabinet-broadcast-missing = There is no such broadcast in your account.
cabinet-broadcast-refused-audience = Choose who gets the broadcast.
cabinet-broadcast-refused-empty = The text is empty.
cabinet-broadcast-refused-long = The text is { $count } characters; Telegram takes at most { $max }.
cabinet-broadcast-refused-half-button = A button needs both a label and a link.
cabinet-broadcast-refused-button-text = The button's label is 1 to 64 characters.
cabinet-broadcast-refused-button-url = The button's link must be an https address.
cabinet-broadcast-refused-no-bot = Connect your bot on the Telegram bot page first: broadcasts go through it.
cabinet-broadcast-refused-action = The broadcast is { $state } and cannot be changed.
cabinet-overview-broadcast = Last broadcast ({ $state }): sent { $count }, blocked { $blocked_count }, failed { $failed_count }, left { $left_count }.
cabinet-overview-no-broadcast = none yet
cabinet-action-broadcast-sent = Broadcast sent
cabinet-action-broadcast-paused = Broadcast paused
cabinet-action-broadcast-resumed = Broadcast resumed
cabinet-action-broadcast-cancelled = Broadcast cancelled
cabinet-action-stars-rate-set = Telegram Stars rate set
cabinet-action-gift-refunded = Gift refunded

## The operator's view (/operator; docs/decisions.md, "The operator's view")
operator-sign-in-title = Sign in to the operator's view
operator-sign-in-help = Operators are invited with vp-api operator invite; ask whoever runs the platform for an invitation or a new password link.
operator-sign-in-welcome-title = Welcome to the operator's view
operator-back = Back to the operator's view
operator-menu = Operator's view
operator-section-sales = Sales
operator-section-owed = Owed to partners
operator-section-audit = Audit
operator-sales-title = Sales of every partner
operator-sales-help = Every account's figures summed. Each account counts its days in its own time zone; the range ends with the latest day any account has reached. The figures are brought up to date every few minutes.
operator-partners-share = Partners' share
operator-accounts = Accounts
operator-accounts-order = Rank accounts by
operator-by-revenue = Revenue
operator-by-growth = Growth
operator-by-failures = Failure rate
operator-account = Account
operator-growth = Growth
operator-failure-rate = Declined share
operator-accounts-help = Growth compares what customers paid with the period before; an account with nothing before has no rate and comes after those that have one. The declined share is of the payments the gateway decided.
operator-owed-title = What the platform owes partners
operator-owed-total = { MONEY($total) } owed to { $accounts ->
    [one] one account
   *[other] { $accounts } accounts
}.
operator-available = Available
operator-held = Held by withdrawals
operator-owed = Owed
operator-total = Total
operator-waiting = Withdrawals waiting
operator-waiting-none = No withdrawal is waiting.
operator-waiting-total = { MONEY($total) } in { $count ->
    [one] one withdrawal
   *[other] { $count } withdrawals
} asked for or approved and not paid yet (vp-api withdrawal takes each on).
operator-waiting-more = More withdrawals are waiting than this page shows (the newest 200 of each status): vp-api withdrawal list --status requested lists them all.
operator-asked = Asked for
operator-amount = Amount
operator-withdrawal-status = Status
operator-withdrawal = Withdrawal
operator-withdrawal-requested = Waiting for approval
operator-withdrawal-approved = Approved, to be paid
operator-owed-help = A balance is the partner's share of the payments kept, less what was paid out; what a withdrawal asks for is held until it is paid or rejected.
operator-audit-title = The operators' audit
operator-audit-help = Every page of this view an operator opens is written here with what it showed, as are sign-ins, invitations and revocations. Times in UTC.
operator-action-invited = Invited
operator-action-reset-link = Sent a new password link
operator-action-revoked = Access ended
operator-action-password-set = Set the password
operator-action-signed-in = Signed in
operator-action-signed-out = Signed out
operator-action-viewed-sales = Looked at the sales
operator-action-viewed-ledger = Looked at what is owed
operator-action-viewed-audit = Looked at the audit
