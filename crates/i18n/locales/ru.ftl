# Русские тексты. Ключи те же, что в en.ftl (это проверяет тест); формы множественного числа
# по правилам CLDR: one (1, 21, 31…), few (2–4, 22–24…), many (0, 5–20, 25–30…).

## Набор страниц

page-platform-name = Партнёрская VPN-платформа
page-support = Поддержка
page-language = Язык
page-not-found-title = Страница не найдена
page-not-found-why = Возможно, в ссылке опечатка или она больше не действует. Если её прислал магазин или бот, попросите новую.
page-not-found-home = На главную
page-unavailable-title = Временно недоступно
page-unavailable-why = У нас что-то пошло не так. Попробуйте ещё раз через минуту.
page-try-again = Попробовать снова

## Состояние подписки (страницы подключения)

page-subscription-title = Ваша подписка
page-subscription-status = Статус
page-subscription-active-trial = Активна (пробный период)
page-subscription-active = Активна
page-subscription-expired = Истекла
page-subscription-paused = Приостановлена
page-subscription-valid-until = Действует до
page-subscription-lifetime = Бессрочно
page-subscription-until-day = { DATE($day) } ({ $days ->
    [one] остался { $days } день
    [few] осталось { $days } дня
   *[many] осталось { $days } дней
})
page-subscription-devices = Устройства
page-subscription-devices-used-of = { $used } из { $limit }
page-subscription-devices-used = { $used } (без ограничения)
page-subscription-devices-up-to = до { $limit }
page-subscription-devices-no-limit = без ограничения
page-subscription-traffic = Трафик
# $used — использованные ГБ, уже записанные (8,6); $limit — лимит (10 ГБ в месяц).
page-subscription-traffic-used-of = { $used } из { $limit }
# $gb — уже записанное число (50, 1,5); $reset — когда счёт начинается заново.
page-subscription-traffic-limit = { $gb } ГБ { $reset ->
    [day] в день
    [week] в неделю
    [month] в месяц
    [month_rolling] в месяц
   *[no_reset] на срок
}

## Страницы подключения

page-connect-apps = Приложения
page-connect-apps-for = Приложения для { $platform }
page-connect-platform = Платформа
page-connect-other-apps = Другие приложения
page-connect-open-in = Открыть в { $app }
page-connect-get-it-on = Скачать в
page-connect-nothing-happened = Ничего не произошло после нажатия «Открыть»? Сначала установите приложение, затем нажмите ещё раз.
page-connect-link-title = Ссылка на подписку
page-connect-link-hint = Или добавьте эту ссылку в приложение вручную:
page-connect-copy = Копировать
page-connect-copied = Скопировано
page-connect-another-device = На другом устройстве
page-connect-qr-label = QR-код страницы подключения
page-connect-scan = Наведите камеру телефона, чтобы открыть эту страницу на нём.

## Главная страница

page-home-what = Партнёры продают VPN-подписки под своим брендом через API этого сервиса: тарифы и цены, счета, клиенты, пробный период, устройства и ссылки на приложения.
page-home-api = Описание партнёрского API (OpenAPI)
page-home-api-reference = Справочник партнёрского API (методы, ошибки, события)
page-home-health = Состояние сервиса
page-home-customers = Ищете свою подписку? Откройте ссылку, которую прислал магазин или бот.

## Юридические документы

page-document-operator = Оператор
page-document-operator-name = Наименование
page-document-contact = Контакты
page-document-since = Действует с

## The cabinet's frame

cabinet-menu = Кабинет
cabinet-section-overview = Обзор
cabinet-section-webhooks = Вебхуки
cabinet-section-balance = Баланс
cabinet-section-clients = Клиенты
cabinet-section-notices = Уведомления
cabinet-section-activity = Журнал действий
cabinet-sign-out = Выйти
cabinet-not-found = Не найдено
cabinet-older = Раньше
cabinet-back = Вернуться в кабинет
cabinet-stale-form-title = Форма устарела
cabinet-stale-form-why = Ничего не изменено. Откройте страницу заново и повторите действие.

## Cabinet: overview

cabinet-overview-on = включён
cabinet-overview-off = выключен
cabinet-overview-brand-refused = Название бренда: от 1 до { $max } символов в одну строку.
cabinet-overview-brand-saved = Название сохранено.
cabinet-overview-brand = Название бренда
cabinet-overview-brand-help = Его видят ваши покупатели на страницах оплаты, в документах и в VPN-приложениях.
cabinet-overview-brand-save = Сохранить название
cabinet-overview-account = Аккаунт
cabinet-overview-account-id = Идентификатор
cabinet-overview-markup = Наценка
cabinet-overview-trial = Пробный период
cabinet-overview-shop = Ваш магазин на сайте
cabinet-overview-api = Доступ к API
cabinet-overview-api-enabled = включён
cabinet-overview-api-disabled = отключён платформой
cabinet-overview-available = Доступный баланс
cabinet-overview-keys = Ключи API
cabinet-overview-keys-help = Ключи выдаёт платформа и показывает один раз; здесь их первые символы.
cabinet-overview-key = Ключ
cabinet-overview-key-issued = Выдан
cabinet-overview-key-state = Состояние
cabinet-overview-key-revoked = отозван
cabinet-overview-key-active = действует
cabinet-overview-limits = Действующие лимиты
cabinet-overview-requests-per-minute = Запросов в минуту
cabinet-overview-invoices-per-minute = Счетов в минуту
cabinet-overview-new-clients-per-day = Новых клиентов в сутки
cabinet-overview-trials-per-day = Пробных периодов в сутки
cabinet-overview-limits-help = Более высокие лимиты согласуются с платформой.
cabinet-overview-more = Ещё
cabinet-overview-more-webhooks = Адреса для событий, секреты и журнал доставки
cabinet-overview-more-balance = Баланс, движение средств и вывод
cabinet-overview-more-clients = Клиенты: подписки, устройства и счета
cabinet-overview-more-notices = Уведомления платформы и Telegram
cabinet-overview-more-activity = Журнал: кто и что делал в кабинете

## Cabinet: activity

cabinet-activity-none = Пока ничего не происходило.
cabinet-activity-when = Когда
cabinet-activity-who = Кто
cabinet-activity-what = Что
cabinet-activity-details = Подробности
cabinet-renewal-title = Автопродление
cabinet-renewal-state = Состояние
cabinet-renewal-on = Включено: за день до конца срока списываем с сохранённого способа оплаты
cabinet-renewal-off-since = Отключено { $when } ({ $by })
cabinet-renewal-off-by-customer = клиентом
cabinet-renewal-off-by-support = поддержкой: { $email }
cabinet-renewal-off-by-operator = оператором платформы
cabinet-renewal-off-by-stars = клиентом в Telegram (подписка за звёзды)
cabinet-renewal-consented = Согласие дано
cabinet-renewal-invoice = Со счётом
cabinet-renewal-next-amount = Сумма следующего списания
cabinet-renewal-method = Сохранённый способ
cabinet-renewal-text = Текст, который видел клиент
cabinet-renewal-turn-off = Отключить автопродление
cabinet-renewal-turned-off = Автопродление клиента отключено: больше ничего не спишем.
cabinet-stars-title = Подписка в Telegram Stars
cabinet-stars-renewing = Продлевается: Telegram списывает { $stars } Stars каждые 30 дней
cabinet-stars-canceled-since = Отменена { $when }
cabinet-stars-first-charge = Первый платёж
cabinet-stars-paid-until = Оплачена до (по данным Telegram)
cabinet-action-user-invited = приглашён пользователь
cabinet-action-user-reset-link = выдана ссылка для нового пароля
cabinet-action-user-revoked = доступ пользователя закрыт
cabinet-action-password-set = задан пароль
cabinet-action-signed-in = вход
cabinet-action-signed-out = выход
cabinet-action-brand-renamed = изменено название бренда
cabinet-action-endpoint-added = добавлен адрес для событий
cabinet-action-endpoint-types-changed = изменены события адреса
cabinet-action-endpoint-enabled = адрес для событий включён
cabinet-action-endpoint-disabled = адрес для событий отключён
cabinet-action-endpoint-secret-revealed = показан секрет подписи
cabinet-action-endpoint-secret-rotated = заменён секрет подписи
cabinet-action-endpoint-tested = отправлено тестовое событие
cabinet-action-endpoint-replayed = повторно отправлены события
cabinet-action-withdrawal-requested = запрошен вывод средств
cabinet-action-withdrawal-approved = вывод одобрен
cabinet-action-withdrawal-rejected = вывод отклонён
cabinet-action-withdrawal-paid = вывод выплачен
cabinet-action-chat-linked = подключён чат Telegram
cabinet-action-chat-unlinked = отключён чат Telegram

## Cabinet: sign-in

cabinet-sign-in-title = Вход в кабинет партнёра
cabinet-sign-in-email = Электронная почта
cabinet-sign-in-password = Пароль
cabinet-sign-in-submit = Войти
cabinet-sign-in-help = Доступ выдаёт платформа: попросите у вашего контакта приглашение или ссылку для нового пароля.
cabinet-sign-in-wrong = Неверная почта или пароль.
cabinet-sign-in-locked = Слишком много неудачных попыток. Вход закрыт до { $until }; попробуйте позже.
cabinet-sign-in-link-gone = Ссылка больше не действует
cabinet-sign-in-link-gone-why = Ссылка для пароля действует один раз и 72 часа. Попросите у платформы новую.
cabinet-sign-in-password-too-short = { $count ->
    [one] Нужно не меньше { $count } символа.
   *[other] Нужно не меньше { $count } символов.
    }
cabinet-sign-in-password-too-long = Слишком длинный пароль.
cabinet-sign-in-welcome-title = Добро пожаловать в кабинет партнёра
cabinet-sign-in-reset-title = Новый пароль
cabinet-sign-in-for-whom = Задайте пароль для
cabinet-sign-in-link-valid = Ссылка действует один раз, до { $until }.
cabinet-sign-in-new-password = Новый пароль
cabinet-sign-in-password-rule = { $count ->
    [one] Не меньше { $count } символа; фразу из нескольких слов легко запомнить.
   *[other] Не меньше { $count } символов; фразу из нескольких слов легко запомнить.
    }
cabinet-sign-in-confirm = Пароль ещё раз
cabinet-sign-in-set-password = Сохранить пароль и войти
cabinet-sign-in-passwords-differ = Пароли не совпадают.

## Cabinet: notices

cabinet-notices-intro = Например: адрес вебхуков, отключённый платформой, или выплаченный вывод средств.
cabinet-notices-none = Платформа пока ничего вам не сообщала.
cabinet-notices-no-such-chat = К вашему аккаунту не подключён такой чат.
cabinet-notices-telegram = Telegram
cabinet-notices-telegram-off = Эта платформа не отправляет уведомления в Telegram; они видны только здесь.
cabinet-notices-telegram-intro = Подключённые чаты получают каждое уведомление сообщением от бота платформы.
cabinet-notices-unlinked = Чат отключён.
cabinet-notices-no-chats = Пока не подключён ни один чат.
cabinet-notices-chat = Чат
cabinet-notices-linked-by = Кто подключил
cabinet-notices-since = С
cabinet-notices-unlink = Отключить
cabinet-notices-open-telegram = Открыть Telegram и нажать «Start»
cabinet-notices-link-help = Ссылка сработает один раз, в том чате, где вы её откроете, до { $until }.
cabinet-notices-link-telegram = Подключить Telegram

## Страницы оплаты: заказ

page-order-order = Заказ
page-order-number = Номер заказа
page-order-method = Способ оплаты
page-order-pay-by = Оплатить до
page-order-lifetime = Подписка навсегда
page-order-subscription = { $count ->
    [one] Подписка на { $count } месяц
    [few] Подписка на { $count } месяца
    [many] Подписка на { $count } месяцев
   *[other] Подписка на { $count } месяца
    }
page-order-devices = { $count ->
    [one] { $count } дополнительное устройство
    [few] { $count } дополнительных устройства
    [many] { $count } дополнительных устройств
   *[other] { $count } дополнительного устройства
    }
page-order-minutes-left = { $minutes ->
    [one] осталась { $minutes } минута
    [few] осталось { $minutes } минуты
    [many] осталось { $minutes } минут
   *[other] осталось { $minutes } минуты
    }
page-order-hours-left = { $hours ->
    [one] остался { $hours } час
    [few] осталось { $hours } часа
    [many] осталось { $hours } часов
   *[other] осталось { $hours } часа
    } { $minutes ->
    [one] { $minutes } минута
    [few] { $minutes } минуты
    [many] { $minutes } минут
   *[other] { $minutes } минуты
    }
page-order-receipt = Чек: { MONEY($amount) }, { $when }, { $method }, заказ
page-order-connect = Подключиться
page-order-connect-mailed = Ссылка для подключения — в письме на адрес, указанный в заказе.
page-order-back-to-shop = Вернуться в магазин
page-order-new-invoice = Вернитесь в магазин или бот за новым счётом.

## Страницы оплаты: тестовый платёжный шлюз

page-sandbox-note = Тестовая страница оплаты: реальные деньги не списываются.
page-sandbox-title = Оплата
page-sandbox-pay = Оплатить
page-sandbox-pay-anyway = Всё равно оплатить
page-sandbox-decline = Отказаться
page-sandbox-paid = Оплачено. Спасибо!
page-sandbox-failed = Платёж не прошёл.
page-sandbox-nothing-taken = Деньги не списаны.
page-sandbox-expired = Срок оплаты истёк.
page-sandbox-you-accept = Оплачивая, вы принимаете:
page-sandbox-documents = Документы:
page-sandbox-unknown-action = Неизвестное действие
page-renew-tick = Продлевать автоматически: { MONEY($amount) } за { $months ->
    [one] { $months } месяц
    [few] { $months } месяца
    [many] { $months } месяцев
   *[other] { $months } месяца
    } каждый раз, следующее списание { $date } с карты, которой вы платите сейчас. Отключить можно в любой момент на странице подписки.
page-renew-after = Продлевать автоматически: { MONEY($amount) } за { $months ->
    [one] { $months } месяц
    [few] { $months } месяца
    [many] { $months } месяцев
   *[other] { $months } месяца
    } каждый раз, следующее списание { $date } с карты, которой вы заплатили. Отключить можно в любой момент на странице подписки.
page-renew-turn-on = Продлевать автоматически
page-renew-on = Автопродление включено: карта списывается за день до конца срока. Отключить можно в любой момент на странице подписки.

## Страницы оплаты: результат

page-result-waiting = Ждём подтверждения оплаты
page-result-waiting-detail = Как только платёжный сервис подтвердит оплату, эта страница сообщит об этом. Она обновляется сама.
page-result-paid = Оплачено. Спасибо!
page-result-gift-detail = Подарок готов: передайте ссылку тому, для кого он.
page-result-gift = Ваш подарок
page-result-gift-pass-on = Подписку получит тот, кто первым откроет эту ссылку; она работает один раз. Мы также отправили её вам на почту.
page-result-gift-in-telegram = Или в Telegram:
page-result-paid-detail = Доступ готов: подключите приложение кнопкой ниже.
page-result-failed = Платёж не прошёл
page-result-failed-detail = Деньги не списаны. Запросите в магазине или боте новый счёт, чтобы попробовать снова.
page-result-expired = Срок оплаты истёк
page-result-expired-detail = Запросите в магазине или боте новый счёт.
page-result-back-to-payment = Вернуться к оплате

## Cabinet: webhooks

cabinet-webhooks-title = Адреса для событий
cabinet-api-reference = Справочник API: все методы, их ошибки и события с их содержимым
cabinet-webhooks-intro = { $max ->
    [one] До { $max } адреса. Каждый получает отмеченные события, подписанные своим секретом.
   *[other] До { $max } адресов. Каждый получает отмеченные события, подписанные своим секретом.
    }
cabinet-webhooks-none = Адресов пока нет.
cabinet-webhooks-address = Адрес
cabinet-webhooks-events = События
cabinet-webhooks-state = Состояние
cabinet-webhooks-enabled = включён
cabinet-webhooks-disabled = отключён
cabinet-webhooks-disabled-gone = отключён автоматически: ваш сервер ответил 410 Gone
cabinet-webhooks-disabled-failing = отключён автоматически: пять дней без принятой доставки
cabinet-webhooks-since = с { $at }
cabinet-webhooks-add-heading = Добавить адрес
cabinet-webhooks-url = Адрес (https)
cabinet-webhooks-url-help = https на порту 443, доступный из интернета.
cabinet-webhooks-add = Добавить адрес
cabinet-webhooks-address-title = Адрес для событий
cabinet-webhooks-added-at = Добавлен
cabinet-webhooks-disable = Отключить
cabinet-webhooks-enable = Включить снова
cabinet-webhooks-delivery-log = Журнал доставки
cabinet-webhooks-test = Проверка
cabinet-webhooks-test-help = Отправляет событие webhook.test и показывает код ответа вашего сервера и время.
cabinet-webhooks-test-send = Отправить тестовое событие
cabinet-webhooks-save-types = Сохранить события
cabinet-webhooks-secret = Секрет подписи
cabinet-webhooks-secret-help = Проверяйте им заголовок webhook-signature каждого события.
cabinet-webhooks-secret-show = Показать секрет
cabinet-webhooks-secret-keep = Храните его только на своём сервере.
cabinet-webhooks-rotate = Заменить секрет
cabinet-webhooks-replay = Повторная отправка
cabinet-webhooks-replay-help = Снова отправляет события, которые адрес не принял, с новым расписанием попыток.
cabinet-webhooks-replay-days = Недоставленные события за последние ... дней
cabinet-webhooks-replay-button = Отправить повторно
cabinet-webhooks-not-found = В вашем аккаунте нет такого адреса.
cabinet-webhooks-all = Все адреса
cabinet-webhooks-test-sent = Тестовое событие отправлено: ответ
cabinet-webhooks-test-no-response = нет ответа
cabinet-webhooks-test-time = время { $ms } ms
cabinet-webhooks-test-wait = { $seconds ->
    [one] Не больше 5 тестовых событий в минуту. Повторите через { $seconds } секунду.
    [few] Не больше 5 тестовых событий в минуту. Повторите через { $seconds } секунды.
    [many] Не больше 5 тестовых событий в минуту. Повторите через { $seconds } секунд.
   *[other] Не больше 5 тестовых событий в минуту. Повторите через { $seconds } секунды.
    }
cabinet-webhooks-replayed = { $days ->
    [one] Недоставленных событий за { $days } день снова в очереди: { $count }.
    [few] Недоставленных событий за { $days } дня снова в очереди: { $count }.
    [many] Недоставленных событий за { $days } дней снова в очереди: { $count }.
   *[other] Недоставленных событий за { $days } дня снова в очереди: { $count }.
    }
cabinet-webhooks-rotated = Действует новый секрет. До { $until } события подписываются и старым, и новым: переключите сервер до этого времени.
cabinet-webhooks-enabled-again = Адрес включён. Пропущенные за время отключения события можно отправить повторно ниже.
cabinet-webhooks-added = Адрес добавлен.
cabinet-webhooks-disabled-now = Адрес отключён; ожидающие события ждут повторной отправки.
cabinet-webhooks-types-saved = Типы событий сохранены.
cabinet-webhooks-refused-too-many = { $max ->
    [one] У аккаунта не больше { $max } адреса; удалите или измените один из них.
   *[other] У аккаунта не больше { $max } адресов; удалите или измените один из них.
    }
cabinet-webhooks-refused-not-a-url = Это не адрес URL.
cabinet-webhooks-refused-credentials = Логин и пароль в адресе не принимаются.
cabinet-webhooks-refused-no-host = В адресе нет имени сервера.
cabinet-webhooks-refused-not-https = Принимаются только адреса https://.
cabinet-webhooks-refused-not-port-443 = Принимается только порт 443.
cabinet-webhooks-refused-does-not-resolve = Имя { $host } не находится в DNS.
cabinet-webhooks-refused-no-address = Имя { $host } не находится в DNS.
cabinet-webhooks-refused-not-public = { $host } указывает на { $ip }, а это не общедоступный адрес.
cabinet-webhooks-refused-no-event-types = Отметьте хотя бы один тип событий.
cabinet-webhooks-refused-unknown-type = Неизвестный тип событий { $name }.
cabinet-webhooks-refused-replay-days = { $days ->
    [one] Выберите { $listed } или { $days } день.
    [few] Выберите { $listed } или { $days } дня.
    [many] Выберите { $listed } или { $days } дней.
   *[other] Выберите { $listed } или { $days } дня.
    }
cabinet-webhooks-refused-disabled = Адрес выключен; сначала включите его.

## Cabinet: delivery log and events

cabinet-deliveries-title = Журнал доставки
cabinet-deliveries-failed-only = Только неудачные попытки
cabinet-deliveries-event-type = Тип события
cabinet-deliveries-all = Все
cabinet-deliveries-show = Показать
cabinet-deliveries-none = Подходящих попыток нет.
cabinet-deliveries-time = Время
cabinet-deliveries-event = Событие
cabinet-deliveries-event-id = Id события
cabinet-deliveries-attempt = Попытка
cabinet-deliveries-response = Ответ
cabinet-deliveries-duration = Длительность
cabinet-deliveries-no-response = нет ответа
cabinet-deliveries-ms = { $ms } ms
cabinet-deliveries-older = Более ранние попытки
cabinet-deliveries-event-title = Событие
cabinet-deliveries-happened = Произошло
cabinet-deliveries-body-note = Тело события в том виде, в каком оно отправляется, отформатировано для чтения.

## Cabinet: balance and withdrawals

cabinet-balance-kind-share-credit = наценка оплаченного счёта
cabinet-balance-kind-share-reversal = наценка списана (возврат платежа)
cabinet-balance-kind-withdrawal-hold = запрос вывода: удержание
cabinet-balance-kind-withdrawal-approval = вывод одобрен
cabinet-balance-kind-withdrawal-release = вывод отклонён: возврат
cabinet-balance-kind-withdrawal-payout = вывод выплачен
cabinet-balance-when = Когда
cabinet-balance-entry = Запись
cabinet-balance-subject = Счёт или запрос
cabinet-balance-entry-available = Доступно
cabinet-balance-entry-held = Удержано
cabinet-balance-available = Доступно к выводу
cabinet-balance-held = Удержано открытыми запросами
cabinet-balance-total = Всего причитается
cabinet-balance-request = Запросить вывод
cabinet-balance-amount = Сумма, руб.
cabinet-balance-payout-details = Реквизиты для выплаты
cabinet-balance-request-help = Не больше доступного баланса. Сумма удерживается сразу; платформа выплатит её по этим реквизитам.
cabinet-balance-request-submit = Запросить вывод
cabinet-balance-all-requests = Все запросы
cabinet-balance-ledger = Движение средств
cabinet-balance-csv = Скачать всё движение средств (CSV)
cabinet-exports-title = Выгрузки
cabinet-exports-from = С
cabinet-exports-to = По (включительно)
cabinet-exports-help = Дни — в часовом поясе аккаунта, не больше года. Файл — CSV (UTF-8, через запятую, со строкой заголовков); суммы — с точкой и двумя знаками, время — в UTC.
cabinet-exports-invoices = Скачать счета (CSV)
cabinet-exports-clients = Скачать новых клиентов (CSV)
cabinet-exports-ledger = Скачать движение средств (CSV)
cabinet-exports-bad-range = Укажите день «с» и день «по» (ГГГГ-ММ-ДД): «по» не раньше «с», не больше { $days } дней.
cabinet-balance-ledger-none = Записей пока нет.
cabinet-withdrawals-status-requested = запрошен, сумма удержана
cabinet-withdrawals-status-approved = одобрен, ожидает выплаты
cabinet-withdrawals-status-rejected = отклонён, сумма возвращена
cabinet-withdrawals-status-paid = выплачен
cabinet-withdrawals-title = Запросы на вывод
cabinet-withdrawals-none = Запросов пока нет.
cabinet-withdrawals-request = Запрос
cabinet-withdrawals-requested = Создан
cabinet-withdrawals-amount = Сумма
cabinet-withdrawals-status = Статус
cabinet-withdrawals-refused-malformed = Сумма: число больше нуля, не более двух знаков после точки (например, 1500 или 1500.50).
cabinet-withdrawals-refused-too-large = Сумма слишком велика.
cabinet-withdrawals-refused-not-positive = Сумма должна быть больше нуля.
cabinet-withdrawals-refused-more-than-available = Сумма больше доступного баланса ({ MONEY($available_amount) }).
cabinet-withdrawals-refused-no-details = Укажите реквизиты для выплаты.
cabinet-withdrawals-refused-details-too-long = Реквизиты для выплаты: не более { $max } символов.
cabinet-withdrawals-not-found = В вашем аккаунте нет такого запроса.
cabinet-withdrawals-one = Запрос на вывод
cabinet-withdrawals-made = Запрос создан, сумма удержана. Здесь будет видно, когда её выплатят.
cabinet-withdrawals-details = Реквизиты
cabinet-withdrawals-requested-by = Кто запросил
cabinet-withdrawals-last-step = Последний шаг
cabinet-withdrawals-note = Комментарий платформы
cabinet-withdrawals-ledger = Записи движения средств

## Cabinet: clients

cabinet-clients-filter-all = все
cabinet-clients-filter-active = активные
cabinet-clients-filter-expired = истёкшие
cabinet-clients-filter-suspended = приостановленные
cabinet-clients-filter-none = без подписки
cabinet-clients-status-none = нет подписки
cabinet-clients-status-active = активна
cabinet-clients-status-expired = истекла
cabinet-clients-status-suspended = приостановлена
cabinet-clients-status-trial = { $status } (пробная)
cabinet-clients-lifetime = бессрочно
cabinet-clients-search-missing = У вас нет клиента с идентификатором
cabinet-clients-client-id = client_id
cabinet-clients-subscription = Подписка
cabinet-clients-until = До
cabinet-clients-since = С нами с
cabinet-clients-none = Здесь нет клиентов.
cabinet-clients-more = Ещё клиенты
cabinet-clients-find = Найти клиента по client_id
cabinet-clients-find-submit = Найти
cabinet-clients-filter = Статус подписки
cabinet-clients-not-found = В вашем аккаунте нет такого клиента.
cabinet-clients-all = Все клиенты
cabinet-clients-one = Клиент
cabinet-clients-blocked = Заблокирован платформой.
cabinet-clients-unlimited = без ограничений
cabinet-clients-devices-allowed = Устройств можно
cabinet-clients-link = Ссылка подписки
cabinet-clients-trial = Пробный период доступен
cabinet-clients-yes = да
cabinet-clients-no = нет
cabinet-clients-client-since = Клиент с
cabinet-clients-reachable-in-telegram = Доступен в Telegram
cabinet-clients-bot-customer = клиент бота
cabinet-clients-bot-started = Начал работу с ботом
cabinet-clients-bot-last-seen = Последний раз в боте
cabinet-clients-devices = Устройства
cabinet-clients-devices-count = Устройства ({ $count })
cabinet-clients-devices-unavailable = VPN-панель сейчас недоступна; попробуйте позже.
cabinet-clients-devices-none = Устройства не подключены.
cabinet-clients-hwid = HWID
cabinet-clients-device = Устройство
cabinet-clients-connected = Подключено
cabinet-clients-invoices = Счета
cabinet-clients-invoices-none = Счетов пока нет.
cabinet-clients-invoices-newest = Показаны последние счета.
cabinet-clients-invoice-plan = тариф { $plan }
cabinet-clients-invoice-devices = устройства +{ $count }
cabinet-clients-invoice-pending = ожидает оплаты
cabinet-clients-invoice-paid = оплачен
cabinet-clients-invoice-failed = не оплачен
cabinet-clients-invoice-expired = истёк
cabinet-clients-payment-id = payment_id
cabinet-clients-created = Создан
cabinet-clients-for = За что
cabinet-clients-customer-paid = Сумма
cabinet-clients-markup = Ваша наценка
cabinet-clients-status = Статус
## Уведомления партнёрам (кабинет и мессенджер)

notice-endpoint-disabled = { $brand }: адрес вебхуков { $url } отключён, потому что { $reason ->
        [gone] он ответил 410 Gone
       *[other] пять дней ни одна попытка не была принята
    }. Исправьте приёмник, включите адрес в кабинете и повторите пропущенные события.
notice-withdrawal-paid = { $brand }: вывод { $withdrawal } на { MONEY($amount) } выплачен.
notice-chat-linked = Этот чат теперь получает уведомления { $brand }.
notice-chat-link-expired = Ссылка устарела или уже использована. Нажмите «Подключить Telegram» в кабинете ещё раз.
bot-create-offer = Создадим Telegram-бота { $brand }. Нажмите кнопку ниже, проверьте имя и адрес, которые предложит Telegram, и подтвердите: бот сразу подключится к вашему аккаунту, без копирования токена.
bot-create-button = Создать моего бота
bot-create-link-expired = Ссылка устарела или уже использована. Возьмите новую ссылку «Создать моего бота» в кабинете.
bot-create-link-taken = Эту ссылку первым открыл другой человек, теперь она его. Возьмите новую ссылку «Создать моего бота» в кабинете.
bot-create-already = У { $brand } уже есть бот @{ $bot }. Чтобы подключить другого, сначала отключите этого в кабинете.
bot-create-connected = Готово: @{ $bot } теперь бот { $brand }. Имя, описание и команды появятся в течение минуты, покупать в нём можно сразу.
bot-create-open = Открыть @{ $bot }
bot-create-no-link = Этот бот не подключён ни к одному аккаунту. Сначала откройте ссылку «Создать моего бота» из кабинета, затем создайте бота кнопкой, которую она покажет.
bot-create-taken = Этот бот уже подключён к другому аккаунту.

## Сообщения об ошибках API партнёра (`message` конверта, по коду ошибки)

api-error-unauthorized = Ключ API отсутствует, неверен или отозван, либо доступ к API отключён.
api-error-validation-error = Поля запроса неверного вида; см. fields.
api-error-rate-limited = Слишком много запросов; повторите через Retry-After секунд.
api-error-new-clients-daily-limit = Дневной лимит новых клиентов исчерпан.
api-error-idempotency-key-required = Нужен заголовок Idempotency-Key.
api-error-idempotency-key-too-long = Заголовок Idempotency-Key должен быть не длиннее 200 символов.
api-error-idempotency-key-reuse = Idempotency-Key уже привязан к счёту с другими полями.
api-error-operation-in-progress = Счёт по этому Idempotency-Key ещё выставляется; повторите через пару секунд.
api-error-payment-unavailable = Платёжный сервис не ответил; счёт не выставлен. Повторите с тем же ключом.
api-error-unsupported-payment-method = Способ оплаты недоступен.
api-error-plan-not-found = Тариф не существует или снят с продажи.
api-error-payment-not-found = В аккаунте нет такого счёта.
api-error-api-client-not-found = В аккаунте нет такого клиента.
api-error-api-client-blocked = Клиент заблокирован платформой.
api-error-no-active-subscription = Для операции нужна активная подписка.
api-error-device-slot-limit-exceeded = Будет превышен предел устройств клиента.
api-error-device-slots-not-applicable = У клиента неограниченное число устройств.
api-error-devices-not-for-sale = Дополнительные устройства сейчас не продаются.
api-error-device-not-found = У клиента нет такого устройства.
api-error-trial-disabled = Пробный период для аккаунта не включён.
api-error-trial-already-used = У клиента уже была подписка.
api-error-trial-daily-limit = Дневной лимит пробных периодов исчерпан.
api-error-link-rotate-too-soon = Ссылка обновлялась меньше часа назад; повторите через Retry-After секунд.
api-error-service-unavailable = VPN-сервис не ответил; ничего не изменено. Повторите позже.
api-error-internal-error = Внутренняя ошибка; повторите запрос.
api-error-lifetime-subscription = У клиента уже есть бессрочная подписка.
api-error-promo-code-not-found = Такого промокода нет.
api-error-promo-code-expired = Срок действия промокода истёк, или он отключён.
api-error-promo-code-used-up = Промокод уже использован столько раз, сколько можно.
api-error-promo-code-not-applicable = Промокод не действует для этой покупки.
api-error-not-found = Такого адреса нет.
api-error-method-not-allowed = Адрес не поддерживает этот метод.
api-error-unsupported-media-type = Тело запроса должно быть application/json.
api-error-payload-too-large = Тело запроса слишком большое.

## Тексты API партнёра

api-download-label = Скачать { $app } для { $platform }

## Бот партнёра: его профиль в Telegram

bot-profile-short = { $brand }: ваша VPN-подписка, подключение и напоминания.
bot-profile-description = Этот бот — { $brand }: здесь ваша VPN-подписка и устройства, ссылка для подключения и напоминания до окончания доступа.
bot-profile-description-support = Этот бот — { $brand }: здесь ваша VPN-подписка и устройства, ссылка для подключения и напоминания до окончания доступа. Поддержка: { $support }
bot-help = Это бот { $brand }.
    /status — ваша подписка и устройства
    /connect — ссылка для подключения
    /language — English / Русский
    /stop — больше не писать в этот чат
    Чтобы привязать подписку, нажмите «Напоминания в Telegram» на странице подписки.
bot-help-support = Вопросы: { $support }
bot-linked = Готово: этот чат получает напоминания { $brand }.
bot-link-expired = Ссылка устарела или уже использована. Нажмите «Напоминания в Telegram» на странице подписки ещё раз.
bot-not-linked = К этому чату ещё не привязана подписка. Нажмите «Напоминания в Telegram» на странице подписки.
bot-language-set = Теперь этот чат на русском.
bot-stopped = Готово: { $brand } больше не пишет в этот чат. Чтобы привязать его снова, нажмите «Напоминания в Telegram» на странице подписки.
# Подписки чата: одна — «ваша», несколько — по номеру в порядке привязки ($number).
bot-subscription-yours = Ваша подписка
bot-subscription-numbered = Подписка { $number }
bot-subscription-not-yet = Ещё не оформлена.
# $subscription — «Ваша подписка» или «Подписка 2».
bot-connect = { $subscription }. Добавьте эту ссылку в VPN-приложение: { $link }
bot-connect-button = Открыть страницу подключения
bot-reminder-expiring = { $brand }: ваша подписка заканчивается { DATE($day) }, { $days ->
    [one] остался { $days } день.
    [few] осталось { $days } дня.
   *[many] осталось { $days } дней.
}
bot-reminder-expired = { $brand }: ваша подписка закончилась, VPN отключён. Продлите её, чтобы снова подключиться.
bot-reminder-auto-renewal = Автопродление включено: { DATE($day) } спишем { MONEY($amount) }. Отключить можно на странице подписки.
bot-renewal-declined-retry = { $brand }: с карты не удалось списать { MONEY($amount) } за продление вашей подписки. Попробуем снова { DATE($day) }, или продлите сейчас.
bot-renewal-declined-last = { $brand }: с карты не удалось списать { MONEY($amount) } за продление вашей подписки, больше пытаться не будем. Подписка заканчивается { DATE($day) }: продлите её, чтобы VPN продолжил работать.
bot-traffic-most-used = { $brand }: вы израсходовали уже { $percent } % трафика подписки ({ $limit }).
bot-traffic-used-up = { $brand }: трафик вашей подписки израсходован ({ $limit }), VPN приостановлен.
bot-traffic-resets = Счёт начнётся заново { DATE($day) }.
bot-traffic-renew = Продление подписки начнёт счёт заново.
bot-reminder-renew = Продлить
bot-reminder-support = Написать в поддержку
page-renewal-title = Автопродление
page-renewal-on = Включено: за день до конца срока списываем оплату с карты, которой вы платили, и срок продлевается. Отключить можно здесь в любой момент.
page-renewal-turn-off = Отключить автопродление
page-renewal-off-done = Автопродление отключено: больше ничего не спишем.
page-renewal-off-under-way = Автопродление отключено. Уже начатое списание завершится и продлит этот срок; после него ничего не спишем.
page-reminders-telegram = Напоминания в Telegram
page-reminders-telegram-hint = Бот { $brand } напомнит до окончания доступа и покажет вашу подписку.
page-reminders-telegram-open = Открыть в Telegram
bot-command-start = Начать и привязать подписку
bot-command-status = Ваша подписка: до какого числа, устройства
bot-command-connect = Как подключиться
bot-command-help = Помощь и документы
bot-command-language = Сменить язык
bot-command-stop = Отключить напоминания

## Бот партнёра: магазин

shop-welcome = Добро пожаловать в { $brand }! Выберите, что нужно.
shop-menu-plans = Купить подписку
shop-menu-new-subscription = ➕ Новая подписка
shop-extend-which = Какую подписку продлить? Или оформите новую: у неё будет своя ссылка и свои устройства — для роутера или кого-то из семьи.
shop-extend-current = Продлить текущую подписку
shop-extend = Продлить: { $name }
shop-subscriptions = Ваши подписки:
shop-subscription-named = «{ $name }»
shop-new-subscription-ask = Как назвать новую подписку? Напишите название до { $max } символов, например Роутер или Мама.
shop-new-subscription-name-refused = Название — от 1 до { $max } символов в одну строку. Напишите другое.
shop-new-subscription-too-many = У вас уже { $count } подписок — больше одному человеку оформить нельзя.
shop-menu-trial = Попробовать бесплатно
shop-menu-subscription = Моя подписка
shop-menu-devices = Мои устройства
shop-menu-help = Помощь и документы
shop-menu-language = English
shop-menu-back = В меню
shop-plans = { $brand }: выберите тариф.
shop-plans-none = Сейчас ничего не продаётся. Загляните позже.
shop-plan = { $term }: { MONEY($price) }
# $offer — тариф с ценой; $percent — экономия против помесячной оплаты, целых процентов.
shop-plan-saving = { $offer } (−{ $percent } %)
shop-term-with-traffic = { $term }, { $traffic }
shop-term-months = { $count ->
    [one] { $count } месяц
    [few] { $count } месяца
   *[many] { $count } месяцев
    }
shop-term-lifetime = Навсегда
shop-device-offer = Дополнительные устройства: { MONEY($price) } за каждое (включено { $included }, всего не больше { $max }).
shop-devices-choose = Сколько устройств добавить? { MONEY($price) } за каждое.
shop-devices-count = { $count ->
    [one] +{ $count } устройство
    [few] +{ $count } устройства
   *[many] +{ $count } устройств
    }: { MONEY($amount) }
shop-choose-method = Как вы хотите оплатить?
shop-email-ask = Куда прислать чек об оплате? Напишите адрес почты в этот чат (один раз), затем выберите снова.
shop-email-saved = Спасибо: чеки будут приходить на { $email }. Чтобы изменить адрес, напишите другой.
shop-invoice = { $what }: { MONEY($amount) }. Оплатите в течение { $minutes } мин (до { $time }).
shop-invoice-closed = Этот счёт уже нельзя оплатить. Выберите заново.
shop-pay = Оплатить { MONEY($amount) }
shop-paid = Оплата получена, спасибо! { $brand }: подписка действует до { DATE($day) }.
shop-paid-lifetime = Оплата получена, спасибо! { $brand }: подписка бессрочная.
shop-connect = Добавьте эту ссылку в VPN-приложение: { $link }
    Или отсканируйте QR-код другим устройством.
shop-connect-page = Открыть страницу подключения
shop-subscription-none = У вас ещё нет подписки.
shop-renew-on = Продлевать автоматически
shop-renew-consent = Продлевать автоматически? { MONEY($amount) } за { $months ->
    [one] { $months } месяц
    [few] { $months } месяца
    [many] { $months } месяцев
   *[other] { $months } месяца
    } каждый раз, следующее списание { DATE($day) } с карты, которой вы заплатите. Отключить можно в любой момент в «Моей подписке».
shop-renew-on-done = Автопродление включится после оплаты. Отключить можно в любой момент в «Моей подписке».
shop-renew-on-now = Автопродление включено. Отключить можно в любой момент в «Моей подписке».
shop-auto-renew-on = Автопродление: включено, { DATE($day) } спишем { MONEY($amount) }.
shop-auto-renew-off = Отключить автопродление
shop-auto-renew-off-done = Автопродление отключено: больше ничего не спишем. Подписка действует до конца срока, продлить её можно самостоятельно.
shop-auto-renew-off-under-way = Автопродление отключено. Уже начатое списание завершится и продлит этот срок; после него ничего не спишем.
shop-stars-invoice = { $what }: { $stars } ⭐ (Telegram Stars). Оплатите в течение { $minutes } мин (до { $time }).
shop-stars-pay = Оплатить { $stars } ⭐
shop-stars-subscription = Это ежемесячная подписка в Telegram Stars: Telegram списывает { $stars } ⭐ каждые 30 дней, пока вы не отмените её в «Моей подписке».
shop-stars-renewing = Подписка в Telegram Stars: около { DATE($day) } спишется { $stars } ⭐.
shop-checkout-not-payable = Этот счёт уже нельзя оплатить. Выберите тариф в боте заново.
shop-checkout-amount-changed = Цена этого счёта изменилась. Выберите тариф в боте заново.
shop-checkout-blocked = Оплата для вашей учётной записи недоступна.
shop-renew = Продлить
shop-add-devices = Добавить устройства
shop-connect-button = Подключиться
shop-new-link = Новая ссылка
shop-new-link-done = Готово: вот новая ссылка. Старая больше не работает.
shop-new-link-too-soon = Ссылку меняли меньше часа назад. Попробуйте через { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[many] { $minutes } минут
    }.
shop-trial-started = Бесплатный пробный период включён.
shop-trial-used = У вас уже была подписка, поэтому пробный период недоступен.
shop-trial-off = { $brand } сейчас не даёт пробный период.
shop-trial-daily-limit = Пробные периоды на сегодня закончились. Попробуйте завтра.
shop-try-later = { $brand } не может сделать это сейчас. Попробуйте через несколько минут.
shop-too-fast = Слишком много запросов. Попробуйте через { $seconds } с.
shop-blocked = К сожалению, { $brand } не может вас обслужить. Напишите в поддержку.
shop-devices = Ваши устройства: { $used } из { $limit }.
shop-devices-unlimited = Ваши устройства: { $used }, без ограничения.
shop-devices-none = Пока не подключено ни одного устройства.
shop-device = { $name }, добавлено { DATE($day) }
shop-device-remove = Удалить { $name }
shop-device-confirm = Удалить { $name }? Устройство отключится, место освободится.
shop-device-confirm-yes = Да, удалить
shop-device-removed = { $name } удалено.
shop-device-list-old = Этот список устарел; вот текущий.
shop-device-unknown = Устройство
shop-in-progress = Уже выполняется, подождите немного.
shop-lifetime-owned = Ваша подписка бессрочная: продлевать нечего.
shop-help = { $brand }: здесь можно купить и продлить VPN, подключить устройства и получать напоминания до окончания доступа.
shop-documents-terms = Условия и возвраты
shop-documents-privacy = Политика конфиденциальности
shop-support = Написать в поддержку
shop-devices-not-for-sale = Дополнительные устройства сейчас не продаются.
shop-devices-at-limit = У вас уже максимум устройств.
shop-devices-no-limit = В вашей подписке число устройств не ограничено.
shop-needs-subscription = Для этого нужна активная подписка.
shop-new-clients-limit = { $brand } сегодня не принимает новых клиентов. Попробуйте завтра.
notice-bot-disconnected = { $brand }: Telegram больше не принимает токен бота @{ $bot } (его отозвали в BotFather). Бот отключён: подключите его снова с новым токеном.

## Кабинет: Telegram-бот

cabinet-section-bot = Telegram-бот
cabinet-section-promotions = Промокоды
cabinet-clients-invoice-promo = промокод { $code }: скидка { MONEY($amount) }
cabinet-clients-invoice-promo-days = промокод { $code }: { $days } дн. в подарок
cabinet-overview-promos = оплаченных заказов с промокодом: { $used }, скидок дано на { MONEY($amount) }
cabinet-action-promo-created = создан промокод
cabinet-action-promo-disabled = отключён промокод
cabinet-action-referrals-set = изменены дни за приглашения
cabinet-referrals = Реферальная программа
cabinet-referrals-intro = Кнопка «Пригласить друга» в вашем боте даёт каждому покупателю личную ссылку. Когда новый человек придёт по ней и впервые оплатит подписку, покупатель получит дни, указанные ниже: к действующей подписке или к следующей покупке. Возврат этого платежа отменяет подарок.
cabinet-referrals-days = Дней за приглашённого
cabinet-referrals-days-help = 0 — программа выключена; не больше 365.
cabinet-referrals-save = Сохранить
cabinet-referrals-saved = Дни за приглашения сохранены.
cabinet-referrals-refused = Дней за приглашённого — целое число от 0 до { $max }.
cabinet-referrals-figures = Приглашено: { $count }. Оплатили: { $used }. Подарено дней: { $days }.
cabinet-referrals-top = Лучшие пригласившие
cabinet-referrals-inviter = Покупатель
cabinet-referrals-invited = Пригласил
cabinet-referrals-paid = Оплатили
cabinet-referrals-days-given = Подарено дней
cabinet-overview-referrals = Подарено дней: { $days }. Приглашено: { $count }.
cabinet-gift-intro = Подписки, которые ваши клиенты купили в подарок в боте или веб-магазине. Покупатель платит как за любую покупку (вы получаете payment.succeeded для клиента-покупателя); срок тарифа получает тот, кто откроет ссылку. Неполученный подарок сгорает через год после оплаты; до этого за него можно вернуть деньги.
cabinet-gift-none = Подарков пока не покупали.
cabinet-gift-bought = Куплен
cabinet-gift-plan = Тариф
cabinet-gift-amount = Оплачено
cabinet-gift-buyer = Покупатель
cabinet-gift-recipient = Отправлен на
cabinet-gift-state = Состояние
cabinet-gift-unpaid = Не оплачен
cabinet-gift-waiting = Ждёт получения до { $until }
cabinet-gift-refund = Вернуть деньги покупателю
cabinet-gift-redeemed = Получен { $at }, клиент
cabinet-gift-was-refunded = Деньги возвращены { $at }
cabinet-gift-lapsed = Сгорел { $at }
cabinet-gift-refunded = Деньги за подарок возвращены покупателю, ссылка больше не работает.
cabinet-gift-unknown = У этого аккаунта нет подарка с таким платежом.
cabinet-gift-refund-redeemed = Этот подарок уже получен: деньги за него не вернуть.
cabinet-gift-refund-refunded = Деньги за этот подарок уже возвращены.
cabinet-gift-refund-lapsed = Этот подарок сгорел неполученным: деньги за него не возвращаются.
cabinet-gift-refund-failed = Возврат не прошёл, подарок по-прежнему ждёт получения: { $reason }
cabinet-promo-intro = Промокоды, которые покупатели вводят в вашем боте или веб-магазине, а ваши серверы передают как promo_code. Скидка идёт из вашей наценки: цена никогда не опустится ниже цены платформы.
cabinet-promo-none = Промокодов пока нет.
cabinet-promo-new = Новый промокод
cabinet-promo-created = Промокод { $code } создан.
cabinet-promo-disabled = Промокод { $code } отключён.
cabinet-promo-percent-off = скидка { $percent }%
cabinet-promo-amount-off = скидка { MONEY($amount) }
cabinet-promo-extra-days = { $days } дн. в подарок
cabinet-promo-max-uses = до { $max } использований
cabinet-promo-no-max = без ограничения использований
cabinet-promo-per-customer = { $count } на покупателя
cabinet-promo-first-only = только первая покупка
cabinet-promo-plans-only = только тарифы { $plans }
cabinet-promo-until = до { $at }
cabinet-promo-uses = Использован { $used } раз, { $count } ждут оплаты; скидок дано на { MONEY($amount) }.
cabinet-promo-is-disabled = Отключён.
cabinet-promo-disable = Отключить { $code }
cabinet-promo-create = Создать промокод
cabinet-promo-code-help = От 4 до 32 букв, цифр и дефисов; покупатель может вводить в любом регистре.
cabinet-promo-field-code = Промокод
cabinet-promo-field-kind = Что даёт
cabinet-promo-kind-percent = Скидка в процентах
cabinet-promo-kind-amount = Скидка в рублях
cabinet-promo-kind-days = Дни в подарок
cabinet-promo-field-value = Сколько (проценты, рубли или дни)
cabinet-promo-field-max-uses = Всего использований (пусто — без ограничения)
cabinet-promo-field-per-customer = Использований на покупателя
cabinet-promo-field-first-purchase-only = Только для тех, кто ещё не платил
cabinet-promo-field-plans = Тарифы (ничего не отмечено — все)
cabinet-promo-field-expires = Последний день (пусто — бессрочно)
cabinet-promo-refused-fields = Проверьте: { $fields }.
cabinet-promo-refused-malformed = Промокод — от 4 до 32 букв, цифр и дефисов.
cabinet-promo-refused-taken = Промокод { $code } у вас уже есть.
cabinet-promo-refused-plan = Тарифа { $plan } нет в продаже.
cabinet-promo-refused-below = Скидка опускает тариф { $plan } на { MONEY($amount) } ниже цены платформы: уменьшите её или поднимите наценку.
cabinet-promo-refused-past = Последний день уже прошёл.
cabinet-promo-refused-zero = Ограничение использований — не меньше 1.
cabinet-action-bot-connected = подключён Telegram-бот
cabinet-action-bot-disconnected = отключён Telegram-бот
cabinet-action-bot-token-replaced = заменён токен Telegram-бота
cabinet-action-renewal-link-set = изменена ссылка для продления
cabinet-action-auto-renew-off = отключено автопродление клиента
cabinet-bot-intro = Ваш собственный Telegram-бот, которым платформа управляет под вашим брендом: у него ваше название, описания и команды, а ваши покупатели покупают, пробуют, оплачивают, подключаются и управляют устройствами прямо в нём и получают напоминания.
cabinet-bot-bot = Бот
cabinet-bot-status = Состояние
cabinet-bot-status-connected = подключён с { $at }
cabinet-bot-status-revoked = Telegram перестал принимать его токен { $at } (токен отозван в BotFather): подключите новый токен ниже.
cabinet-bot-profile = Название и описания в Telegram
cabinet-bot-profile-in-sync = соответствуют вашему бренду
cabinet-bot-profile-updating = обновляются (Telegram принимает их по очереди)
cabinet-bot-reminders = Напоминания клиентам
cabinet-bot-reminders-intro = Клиентам, нажавшим «Напоминания в Telegram» на странице подписки, ваш бот напомнит за 72 и за 24 часа до окончания доступа и когда он закончится, с кнопкой продления.
cabinet-bot-renewal = Ссылка для продления
cabinet-bot-renewal-help = Адрес https, где клиенты продлевают подписку. Пусто — кнопка ведёт на адрес поддержки, а без него кнопки нет.
cabinet-bot-renewal-save = Сохранить ссылку
cabinet-bot-renewal-saved = Ссылка для продления сохранена.
cabinet-bot-renewal-refused = Ссылка для продления должна быть адресом https:// без пробелов и кавычек.
cabinet-bot-disconnect = Отключить бота
cabinet-bot-new-token = Подключить новый токен
cabinet-bot-token = Токен от BotFather
cabinet-bot-token-help = Создайте бота у @BotFather в Telegram, скопируйте выданный токен и вставьте сюда. Он проверяется в Telegram и хранится зашифрованным; больше его никто не увидит — ни здесь, ни где-либо ещё.
cabinet-bot-connect = Подключить бота
cabinet-bot-connected = Бот подключён. Его название и описания устанавливаются по вашему бренду.
cabinet-bot-disconnected = Бот отключён; платформа забыла его токен.
cabinet-bot-refused-malformed = Это не токен бота: BotFather выдаёт токен вида 123456789:AAE… (цифры, двоеточие, затем буквы и цифры).
cabinet-bot-refused-rejected = Telegram не принимает этот токен. Скопируйте его заново у BotFather (/token).
cabinet-bot-refused-taken = Этот бот подключён к другому аккаунту.
cabinet-bot-refused-already = К вашему аккаунту уже подключён бот @{ $bot }: сначала отключите его.
cabinet-bot-refused-unavailable = Telegram не ответил, поэтому ничего не подключено. Попробуйте через минуту.
cabinet-bot-create = Создать моего бота в Telegram
cabinet-bot-create-help = Без BotFather и без копирования токена: Telegram создаст бота за вас, с названием вашего бренда, и он сразу подключится здесь. Нажмите кнопку, откройте ссылку на телефоне, где у вас Telegram, и подтвердите.
cabinet-bot-create-button = Создать моего бота в Telegram
cabinet-bot-create-open-help = Откройте эту ссылку в Telegram и нажмите там «Создать моего бота»; проверьте имя и адрес, которые предложит Telegram, и подтвердите. Потом вернитесь на эту страницу: ваш бот будет здесь.
cabinet-bot-create-open = Открыть Telegram
cabinet-bot-create-valid = Ссылка сработает один раз, для первого, кто её откроет, до { $at }.
cabinet-bot-create-off = Бот платформы @{ $bot } пока не может создавать ботов: для него нужно включить Bot Management Mode в мини-приложении @BotFather (Bot Settings). Обратитесь к оператору платформы или подключите бота по токену ниже.
cabinet-bot-create-unavailable = Telegram не ответил, ссылка не создана. Попробуйте через минуту.
cabinet-bot-or-token = Или подключите бота, созданного в BotFather
cabinet-bot-rotate = Заменить токен
cabinet-bot-rotate-help = Telegram выдаст боту новый токен и перестанет принимать старый; платформа сразу перейдёт на новый. Копировать его никому не нужно.
cabinet-bot-rotated = Токен заменён: старый Telegram больше не принимает.
cabinet-bot-rotate-unavailable = Telegram не ответил, токен мог не смениться. Бот работает в любом случае; попробуйте через минуту.

## Письма (docs/decisions.md, "Mail")
mail-test-subject = Проверочное письмо от { $brand }
mail-test-body = Это письмо проверяет, что почта от { $brand } до вас доходит. Делать ничего не нужно.
mail-invitation-subject = { $brand }: доступ к кабинету партнёра
mail-invitation-body = Вас пригласили в кабинет партнёра { $brand }. Откройте ссылку, чтобы задать пароль.
mail-reset-subject = { $brand }: новый пароль для кабинета партнёра
mail-reset-body = Для вашей учётной записи в кабинете партнёра { $brand } запрошен новый пароль. Откройте ссылку, чтобы задать его; до тех пор действует старый пароль.
mail-operator-invitation-subject = { $brand }: доступ к панели оператора
mail-operator-invitation-body = Вас пригласили в панель оператора { $brand }: продажи всех партнёров и то, что платформа им должна. Откройте ссылку, чтобы задать пароль.
mail-operator-reset-subject = { $brand }: новый пароль для панели оператора
mail-operator-reset-body = Для вашей учётной записи в панели оператора { $brand } запрошен новый пароль. Откройте ссылку, чтобы задать его; до тех пор действует старый пароль.
mail-link-until = Ссылка действует один раз, до { $until }.
mail-invitation-button = Задать пароль
mail-order-subject = { $brand }: заказ оплачен
mail-order-paid = Оплата получена, спасибо. Заказ { $order }: { $what }, { MONEY($amount) }, оплачен { $when }.
mail-order-until = Подписка действует до { DATE($day) }.
mail-order-lifetime = Подписка бессрочная.
mail-order-shop = Подписка, устройства и чеки: { $shop }
mail-gift-bought-subject = { $brand }: ваш подарок готов
mail-gift-bought = Спасибо: подарок — { $what } { $brand } — оплачен. Передайте ссылку ниже тому, кому он предназначен; подписку получит тот, кто первым её откроет.
mail-gift-received-subject = { $brand }: вам подарок
mail-gift-received = Вам подарили { $what } { $brand } VPN. Откройте ссылку ниже, чтобы начать подписку (или продлить свою).
mail-gift-until = Подарок можно получить один раз, до { $until }.
mail-gift-in-telegram = В Telegram: { $link }
mail-gift-button = Получить подарок
mail-trial-subject = { $brand }: пробный период начался
mail-trial-started = Ваш бесплатный пробный период начался. Он действует до { $until }.
mail-trial-connect = Откройте страницу подключения на устройстве, где нужен VPN: там приложения и ссылка, которую нужно добавить.
mail-sign-in-subject = { $brand }: код для входа { $code }
mail-sign-in-body = Ваш код для входа в { $brand }: { $code }
mail-sign-in-until = Он действует один раз, до { $until }. Войти можно и по кнопке.
mail-sign-in-not-you = Если вы его не запрашивали, просто не обращайте внимания на это письмо: без кода никто не войдёт.
mail-sign-in-button = Войти

## Магазин на сайте (docs/decisions.md, "The web shop")
shop-page-title = { $brand }: подписка на VPN
shop-page-plans = Тарифы
shop-page-trial = Впервые у нас? Попробуйте бесплатно { $hours ->
    [one] { $hours } час
    [few] { $hours } часа
   *[many] { $hours } часов
    }.
shop-page-trial-by-email = Начать по эл. почте
shop-page-trial-or = или
shop-page-trial-in-bot-too = в Telegram
shop-page-buy-in-bot = Купить в Telegram
shop-page-documents = Документы
shop-form-email = Эл. почта
shop-form-email-hint = На этот адрес придут заказ и ссылка для подключения.
shop-form-method = Способ оплаты
shop-form-gift-legend = Подарок?
shop-form-gift = Это подарок: я получу ссылку, чтобы передать её
shop-form-recipient = Email получателя (необязательно)
shop-form-recipient-hint = Мы отправим ему ссылку на подарок после оплаты. Оставьте пустым, чтобы передать ссылку самостоятельно.
shop-form-recipient-invalid = Введите email получателя или оставьте поле пустым.
shop-form-buy = Перейти к оплате
shop-form-promo = Промокод (если есть)
shop-promo-button = 🎟 У меня есть промокод
shop-promo-ask = Отправьте промокод сообщением.
shop-promo-kept = Промокод { $code } будет применён, когда вы выберете тариф.
shop-menu-invite = 🎁 Пригласить друга
shop-invite = Ваша личная ссылка для друзей:
    { $link }
    Когда новый человек придёт по ней и впервые оплатит подписку, вы получите { $days ->
        [one] { $days } день VPN бесплатно.
        [few] { $days } дня VPN бесплатно.
       *[many] { $days } дней VPN бесплатно.
    }
shop-invite-share = Поделиться ссылкой
shop-menu-gift = 💝 Подарить подписку
shop-gift-plans = Какой тариф подарить? После оплаты вы получите ссылку, которую нужно передать: подписку получит тот, кто первым её откроет (или продлит свою).
shop-gift-invoice = 💝 Подарок: { $what }. После оплаты вы получите ссылку, которую нужно передать.
shop-gift-paid = 💝 Оплата получена, спасибо! Подарок — { $what } { $brand } — готов. Отправьте получателю эту ссылку:
shop-gift-link-bot = В Telegram: { $link }
shop-gift-link-web = В браузере: { $link }
shop-gift-until = Подарок можно получить один раз, до { DATE($day) }.
shop-gift-share = Отправить подарок
shop-gift-redeemed = 💝 Подарок ваш: { $brand } добавил его к вашей подписке.
shop-gift-unknown = Эта ссылка на подарок не работает: проверьте, что она скопирована целиком.
shop-gift-used = Этот подарок уже получен: подарок работает один раз.
shop-gift-refunded = За этот подарок вернули деньги покупателю, поэтому он больше не работает.
shop-gift-lapsed = Этот подарок не получили вовремя, и он больше не работает.
shop-account-invite = Отправьте личную ссылку друзьям. Когда новый человек придёт по ней в наш Telegram-бот и впервые оплатит подписку, вы получите { $days ->
    [one] { $days } день VPN бесплатно.
    [few] { $days } дня VPN бесплатно.
   *[many] { $days } дней VPN бесплатно.
}
shop-invite-needs-client = Личная ссылка для приглашений появится, когда у вас будет подписка или пробный период.
shop-invited = 🎁 Вас пригласил друг.
bot-stars-renewal-off = { $brand }: автопродление в Telegram выключено, звёзды больше не спишутся. Подписка действует до { DATE($day) }, продлить её можно в боте.
bot-stars-renewal-on = { $brand }: автопродление в Telegram снова включено. Подписка действует до { DATE($day) }, затем Telegram спишет звёзды за следующий месяц.
bot-stars-renewal-failed = { $brand }: Telegram не смог списать звёзды за следующий месяц, автопродление выключено. Подписка действует до { DATE($day) }; продлить её можно в боте: «Купить подписку».
bot-referral-days = { $brand }: приглашённый вами друг оплатил подписку, спасибо! Теперь ваша подписка действует до { DATE($day) }: { $days ->
    [one] добавлен { $days } день.
    [few] добавлено { $days } дня.
   *[many] добавлено { $days } дней.
}
bot-referral-credit = { $brand }: приглашённый вами друг оплатил подписку, спасибо! { $days ->
    [one] { $days } день добавим к вашей следующей покупке.
    [few] { $days } дня добавим к вашей следующей покупке.
   *[many] { $days } дней добавим к вашей следующей покупке.
}
shop-promo-full-price = Цена ниже — без него.
shop-form-promo-invalid = Промокод — от 4 до 32 букв, цифр и дефисов.
promo-refused-unknown = Такого промокода нет. Проверьте его или купите без него.
promo-refused-expired = Срок действия промокода истёк.
promo-refused-used-up = Промокод уже израсходован.
promo-refused-not-applicable = Промокод не действует для этой покупки.
shop-form-fix = Проверьте, пожалуйста, форму.
shop-form-email-invalid = Введите адрес почты, например name@example.com.
shop-form-plan-invalid = Выберите тариф.
shop-form-method-invalid = Выберите способ оплаты.
shop-form-stale = Эту форму уже отправляли с другими данными. Проверьте их и отправьте ещё раз.
shop-sign-in-title = Вход
shop-sign-in-lead = Введите почту, с которой покупали. Мы пришлём код и ссылку для входа; пароль не нужен.
shop-sign-in-send = Прислать код
shop-sign-in-code-title = Введите код
shop-sign-in-code-sent = Мы отправили шестизначный код на { $email }. Он действует 10 минут.
shop-sign-in-code = Код
shop-sign-in-enter = Войти
shop-sign-in-code-help = Письма нет? Загляните в папку «Спам» или запросите новый код.
shop-sign-in-again = Запросить новый код
shop-sign-in-too-many = Слишком много запросов кода. Попробуйте через { $minutes } мин.
shop-sign-in-wrong = Код неверный. { $tries ->
    [one] Осталась { $tries } попытка.
    [few] Осталось { $tries } попытки.
   *[other] Осталось { $tries } попыток.
    }
shop-sign-in-spent = Этот код или ссылка больше не действует. Запросите новый код.
shop-form-expired = Форма устарела. Начните, пожалуйста, заново.
shop-gift-title = Подарок от { $brand }
shop-gift-redeem-until = Получите его один раз, до { $until }: он начнёт вашу подписку или продлит текущую.
shop-gift-redeem = Получить для { $email }
shop-gift-redeem-hint = Подписка будет привязана к этому адресу: потом она будет в вашем личном кабинете.
shop-gift-sign-in = Войдите по email, чтобы получить подарок: мы пришлём код.
shop-gift-sign-in-button = Войти и получить
shop-gift-waiting = Вас ждёт подарок.
shop-gift-open = Открыть подарок
shop-account-subscriptions = Ваши подписки:
shop-account-subscription-numbered = Подписка { $number }
shop-account-subscription-named = «{ $name }»
shop-account-buy-title = Купить или продлить
shop-account-buy-for = Для какой подписки
shop-account-buy-new = Новая подписка с названием:
shop-account-new-name = Название (например, Роутер или Мама), до { $max } символов
shop-account-name-refused = Назовите новую подписку — от 1 до { $max } символов — или выберите одну из своих. У одного покупателя может быть не больше { $count } подписок.
shop-account-no-such-subscription = Это не ваша подписка.
shop-account-title = Личный кабинет
shop-account-to-shop = Вернуться в магазин
shop-account-buy = Выбрать тариф
shop-account-trial = Впервые у нас? Попробуйте бесплатно { $hours ->
    [one] { $hours } час
    [few] { $hours } часа
   *[many] { $hours } часов
    }: подписка начнётся сразу, платить ничего не нужно.
shop-account-trial-start = Начать пробный период
shop-account-subscription = Подписка
shop-account-auto-renew-on = Автопродление включено.
shop-account-auto-renew-manage = Отключить можно на странице подписки
shop-account-new-link-help = Новая ссылка отменяет старую: устройства придётся подключить заново.
shop-account-device-removed = Устройство удалено.
shop-account-no-such-device = У вас нет такого устройства.
shop-account-receipts = Чеки
shop-account-sign-out = Выйти
shop-page-account = Личный кабинет
cabinet-section-broadcasts = Рассылки
cabinet-sales = Продажи
cabinet-sales-ranges = Период
cabinet-sales-range-7d = 7 дней
cabinet-sales-range-30d = 30 дней
cabinet-sales-range-90d = 90 дней
cabinet-sales-range-this-month = Этот месяц
cabinet-sales-range-last-month = Прошлый месяц
cabinet-sales-period = С { DATE($from) } по { DATE($to) }, в сравнении с таким же периодом до него
cabinet-sales-figure = Показатель
cabinet-sales-this-period = Этот период
cabinet-sales-before = До него
cabinet-sales-change = Изменение
cabinet-sales-gross = Оплачено клиентами
cabinet-sales-share = Ваша доля
cabinet-sales-paid = Оплаченные счета
cabinet-sales-refunded = Возвраты
cabinet-sales-new-clients = Новые клиенты
cabinet-sales-trials = Пробные периоды
cabinet-sales-chart = Оплачено клиентами по дням, с { DATE($from) } по { DATE($to) }
cabinet-sales-as-table = Дни таблицей
cabinet-sales-day = День
cabinet-sales-methods = По способам оплаты
cabinet-sales-method = Способ
cabinet-sales-declined = Отклонено
cabinet-sales-success = Прошло
cabinet-sales-none = В этом периоде счетов нет.
cabinet-sales-help = Дни — по вашему часовому поясу; счёт считается в день выставления, возврат вычитает его сумму. Цифры обновляются каждые несколько минут.
cabinet-sales-first-purchases = Первые покупки
cabinet-sales-converted = Пробные, перешедшие в покупку
cabinet-sales-renewals-manual = Продления, оплаченные вручную
cabinet-sales-renewals-card = Продления сохранённой картой
cabinet-sales-renewals-stars = Продления в Telegram Stars
cabinet-sales-ended = Закончившиеся подписки
cabinet-sales-channels = По каналам
cabinet-sales-channel = Канал
cabinet-sales-channel-api = Ваш API
cabinet-sales-channel-bot = Магазин в боте
cabinet-sales-channel-web = Веб-магазин
cabinet-sales-channels-chart = Оплачено клиентами по каналам, с { DATE($from) } по { DATE($to) }
cabinet-sales-gross-before = Оплачено до него
cabinet-sales-promotions = Промокоды и рефералы
cabinet-sales-promo-discount = Скидка по промокодам
cabinet-sales-promo-gross = Оплачено по счетам с промокодом
cabinet-sales-referral-rewards = Награждено пригласивших
cabinet-sales-referred-gross = Оплачено приглашёнными клиентами
cabinet-sales-channels-help = Клиент считается в канале, через который пришёл: магазин в боте — если ваш бот знает человека, веб-магазин — если знает адрес, иначе ваш API. Закончившаяся подписка — та, чей оплаченный срок истёк и с тех пор не продлён.
cabinet-section-gifts = Подарки
cabinet-broadcast-intro = Сообщение от вашего бота вашим клиентам, каждому на его языке, в темпе, который разрешает Telegram, пока бот продолжает отвечать. Сначала предпросмотр: в чаты, привязанные на странице «Уведомления», через вашего бота, и на этой странице.
cabinet-broadcast-new = Новая рассылка
cabinet-broadcast-field-text = Текст
cabinet-broadcast-text-help = Обычный текст, как его отправляет бот, до { $max } символов. Его получат все, для кого нет русского текста ниже.
cabinet-broadcast-field-text-ru = Текст на русском (необязательно)
cabinet-broadcast-text-ru-help = Для клиентов, с которыми бот говорит по-русски.
cabinet-broadcast-field-button-text = Надпись на кнопке (необязательно)
cabinet-broadcast-field-button-url = Ссылка кнопки (необязательно)
cabinet-broadcast-button-help = Кнопка под сообщением открывает этот https-адрес; укажите и надпись, и ссылку или ничего.
cabinet-broadcast-field-audience = Кому
cabinet-broadcast-audience-all = Всем, кто запускал бота
cabinet-broadcast-audience-active = С действующей оплаченной подпиской
cabinet-broadcast-audience-expired = С закончившейся подпиской
cabinet-broadcast-audience-trial = С действующим пробным периодом
cabinet-broadcast-audience-never-paid = Ни разу не платившим
cabinet-broadcast-preview-button = Предпросмотр
cabinet-broadcast-preview = Предпросмотр
cabinet-broadcast-preview-ru = На русском:
cabinet-broadcast-preview-delivered = { $count ->
    [one] Бот отправил предпросмотр в привязанный чат.
   *[other] Бот отправил предпросмотр в привязанные чаты: { $count }.
    }
cabinet-broadcast-preview-refused = Бот не смог написать в чат { $chat }: откройте там @{ $bot } и нажмите «Запустить», затем повторите предпросмотр. Ответ Telegram: { $reason }
cabinet-broadcast-preview-no-chat = Нет привязанного чата для предпросмотра в Telegram; привяжите его на странице
cabinet-broadcast-will-reach = { $count ->
    [one] Её получит { $count } клиент ({ $audience }).
    [few] Её получат { $count } клиента ({ $audience }).
   *[other] Её получат { $count } клиентов ({ $audience }).
    }
cabinet-broadcast-nobody = Сейчас в этой аудитории никого нет ({ $audience }); отправлять некому.
cabinet-broadcast-send = { $count ->
    [one] Отправить { $count } клиенту
   *[other] Отправить { $count } клиентам
    }
cabinet-broadcast-sent = Рассылка отправляется. Счётчики ниже растут по ходу.
cabinet-broadcast-changed = Рассылка изменена.
cabinet-broadcast-list = Отправленные рассылки
cabinet-broadcast-none = Рассылок пока нет.
cabinet-broadcast-counts = Отправлено: { $count } · Заблокировали бота: { $blocked_count } · Не доставлено: { $failed_count } · Осталось: { $left_count }
cabinet-broadcast-state-sending = отправляется
cabinet-broadcast-state-paused = на паузе
cabinet-broadcast-state-cancelled = отменена
cabinet-broadcast-state-done = завершена
cabinet-broadcast-pause = Пауза
cabinet-broadcast-resume = Продолжить
cabinet-broadcast-cancel = Отменить
cabinet-broadcast-missing = В вашем аккаунте нет такой рассылки.
cabinet-broadcast-refused-audience = Выберите, кому отправить рассылку.
cabinet-broadcast-refused-empty = Текст пустой.
cabinet-broadcast-refused-long = В тексте { $count } символов; Telegram принимает не больше { $max }.
cabinet-broadcast-refused-half-button = Для кнопки нужны и надпись, и ссылка.
cabinet-broadcast-refused-button-text = Надпись на кнопке — от 1 до 64 символов.
cabinet-broadcast-refused-button-url = Ссылка кнопки должна быть https-адресом.
cabinet-broadcast-refused-no-bot = Сначала подключите бота на странице «Telegram-бот»: рассылки идут через него.
cabinet-broadcast-refused-action = Рассылка { $state }, её нельзя изменить.
cabinet-overview-broadcast = Последняя рассылка ({ $state }): отправлено { $count }, заблокировали { $blocked_count }, не доставлено { $failed_count }, осталось { $left_count }.
cabinet-overview-no-broadcast = пока не было
cabinet-action-broadcast-sent = отправлена рассылка
cabinet-action-broadcast-paused = рассылка поставлена на паузу
cabinet-action-broadcast-resumed = рассылка продолжена
cabinet-action-broadcast-cancelled = рассылка отменена
cabinet-action-stars-rate-set = курс Telegram Stars установлен
cabinet-action-gift-refunded = возврат за подарок

## Панель оператора (/operator; docs/decisions.md, "The operator's view")
operator-sign-in-title = Вход в панель оператора
operator-sign-in-help = Операторов приглашают командой vp-api operator invite; попросите того, кто ведёт платформу, прислать приглашение или ссылку для нового пароля.
operator-sign-in-welcome-title = Добро пожаловать в панель оператора
operator-back = Вернуться в панель оператора
operator-menu = Панель оператора
operator-section-sales = Продажи
operator-section-owed = Долг партнёрам
operator-section-audit = Журнал
operator-sales-title = Продажи всех партнёров
operator-sales-help = Показатели всех аккаунтов вместе. Каждый аккаунт считает дни в своём часовом поясе; период заканчивается последним наступившим днём среди всех аккаунтов. Показатели обновляются каждые несколько минут.
operator-partners-share = Доля партнёров
operator-accounts = Аккаунты
operator-accounts-order = Упорядочить аккаунты по
operator-by-revenue = Выручке
operator-by-growth = Росту
operator-by-failures = Доле отказов
operator-account = Аккаунт
operator-growth = Рост
operator-failure-rate = Доля отказов
operator-accounts-help = Рост сравнивает оплаченное клиентами с предыдущим периодом; у аккаунта без оплат раньше роста нет, и он идёт после остальных. Доля отклонённых считается от платежей, по которым шлюз принял решение.
operator-owed-title = Сколько платформа должна партнёрам
operator-owed-total = Долг { MONEY($total) } { $accounts ->
    [one] { $accounts } аккаунту
   *[other] { $accounts } аккаунтам
}.
operator-available = Доступно
operator-held = В заявках на вывод
operator-owed = Долг
operator-total = Всего
operator-waiting = Заявки на вывод в ожидании
operator-waiting-none = Заявок в ожидании нет.
operator-waiting-total = { MONEY($total) } в { $count ->
    [one] { $count } заявке
   *[other] { $count } заявках
}: запрошены или одобрены и ещё не выплачены (их ведёт vp-api withdrawal).
operator-waiting-more = Заявок в ожидании больше, чем показано (здесь по 200 новейших каждого статуса): все покажет vp-api withdrawal list --status requested.
operator-asked = Запрошено
operator-amount = Сумма
operator-withdrawal-status = Статус
operator-withdrawal = Заявка
operator-withdrawal-requested = Ждёт одобрения
operator-withdrawal-approved = Одобрена, к выплате
operator-owed-help = Баланс — доля партнёра в сохранённых платежах за вычетом выплаченного; сумма заявки на вывод удерживается, пока заявку не выплатят или не отклонят.
operator-audit-title = Журнал операторов
operator-audit-help = Здесь записана каждая открытая оператором страница этой панели и то, что она показала, а также входы, приглашения и отзывы доступа. Время по UTC.
operator-action-invited = Приглашён
operator-action-reset-link = Отправлена ссылка для нового пароля
operator-action-revoked = Доступ закрыт
operator-action-password-set = Задан пароль
operator-action-signed-in = Вход
operator-action-signed-out = Выход
operator-action-viewed-sales = Просмотр продаж
operator-action-viewed-ledger = Просмотр долга партнёрам
operator-action-viewed-audit = Просмотр журнала
