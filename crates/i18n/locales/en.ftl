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
