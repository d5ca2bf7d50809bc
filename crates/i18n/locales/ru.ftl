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
