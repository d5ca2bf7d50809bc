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

## Уведомления партнёрам (кабинет и мессенджер)

notice-endpoint-disabled = { $brand }: адрес вебхуков { $url } отключён, потому что { $reason ->
        [gone] он ответил 410 Gone
       *[other] пять дней ни одна попытка не была принята
    }. Исправьте приёмник, включите адрес в кабинете и повторите пропущенные события.
notice-withdrawal-paid = { $brand }: вывод { $withdrawal } на { MONEY($amount) } выплачен.
notice-chat-linked = Этот чат теперь получает уведомления { $brand }.
notice-chat-link-expired = Ссылка устарела или уже использована. Нажмите «Подключить Telegram» в кабинете ещё раз.

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
api-error-not-found = Такого адреса нет.
api-error-method-not-allowed = Адрес не поддерживает этот метод.
api-error-unsupported-media-type = Тело запроса должно быть application/json.
api-error-payload-too-large = Тело запроса слишком большое.

## Тексты API партнёра

api-download-label = Скачать { $app } для { $platform }
