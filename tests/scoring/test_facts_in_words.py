"""Typed facts said in words and in context: money and times in words, days of the month,
weekdays and relative days against a calendar, durations across units, and values that are
mentioned but ruled out. Each kind has near misses per language that must not be read."""

from __future__ import annotations

from datetime import date

import pytest

from supportsim.scoring.text.facts._read import Calendar, Fact, find_fact, stated_facts

MONDAY = Calendar(date(2026, 3, 16))
"""Monday 16 March 2026: "Wednesday" is the 18th, "tomorrow" the 17th."""

# (fact, lang, text, calendar): each must be found
STATED: list[tuple[Fact, str, str, Calendar | None]] = [
    # money in words and informal forms
    (Fact("money", 11.5, "USD"), "en", "That's eleven dollars fifty per day.", None),
    (Fact("money", 35, "USD"), "en", "It came to thirty-five bucks.", None),
    (Fact("money", 12.5, "GBP"), "en", "A refund of twelve pounds fifty is on its way.", None),
    (Fact("money", 0.5, "USD"), "en", "There's a fee of 50 cents per text.", None),
    (Fact("money", 40, "USD"), "en", "A fee of 40 usd applies.", None),
    (Fact("money", 1250, "MXN"), "es", "El total es de $1,250 MXN.", None),
    (Fact("money", 12.5, "EUR"), "de", "Das macht zwölf Euro fünfzig.", None),
    (Fact("money", 11.5, "EUR"), "de", "Ich habe Ihnen 11,50 € gutgeschrieben.", None),
    (Fact("money", 0.9, "EUR"), "de", "Pro SMS kostet es neunzig Cent.", None),
    (Fact("money", 35, "EUR"), "es", "Le devolvemos treinta y cinco euros.", None),
    (Fact("money", 12.5, "EUR"), "es", "Son doce euros con cincuenta.", None),
    (Fact("money", 35, "EUR"), "fr", "Je vous rembourse trente-cinq euros.", None),
    (
        Fact("money", 1249.9, "EUR"),
        "fr",
        "Le total s'élève à mille deux cent quarante-neuf euros et quatre-vingt-dix centimes.",
        None,
    ),
    # times in words
    (Fact("time", "11:30"), "en", "Your slot is at half past eleven.", None),
    (Fact("time", "16:30"), "en", "We'll see you at half past four.", None),
    (Fact("time", "14:45"), "en", "They'll call at a quarter to three this afternoon.", None),
    (Fact("time", "14:15"), "en", "Booked for quarter past two in the afternoon.", None),
    (Fact("time", "16:00"), "en", "Your appointment on Friday at 4 is cancelled.", None),
    (Fact("time", "12:00"), "en", "The engineer comes at noon.", None),
    (Fact("time", "08:00"), "en", "Moved to Saturday morning, between 8 and 12.", None),
    (Fact("time", "14:00"), "en", "Any time between 2 and 4 pm works.", None),
    (Fact("time", "10:30"), "de", "Ihr Termin ist um halb elf.", None),
    (Fact("time", "15:15"), "de", "Wir rufen Sie Viertel nach drei nachmittags an.", None),
    (Fact("time", "11:00"), "de", "Kommen Sie bitte um elf.", None),
    (Fact("time", "11:30"), "es", "Le espero a las once y media.", None),
    (Fact("time", "17:00"), "es", "La cita es a las cinco de la tarde.", None),
    (Fact("time", "08:45"), "es", "Abrimos a las nueve menos cuarto.", None),
    (Fact("time", "09:00"), "es", "El técnico llegará entre las 9 y las 13 h.", None),
    (Fact("time", "11:00"), "fr", "Votre rendez-vous est à onze heures.", None),
    (Fact("time", "14:30"), "fr", "Je vous attends à deux heures et demie.", None),
    (Fact("time", "12:30"), "fr", "Rendez-vous à midi et demi.", None),
    (Fact("time", "08:00"), "fr", "Le technicien passera entre huit heures et midi.", None),
    (Fact("time", "12:00"), "fr", "La boutique ferme à midi.", None),
    # dates against a calendar
    (Fact("date", "2026-03-18"), "en", "Booked for this Wednesday, the 18th.", MONDAY),
    (Fact("date", "2026-03-18"), "en", "See you on the 18th at ten.", MONDAY),
    (Fact("date", "2026-03-18"), "en", "It arrives Wednesday.", MONDAY),
    (Fact("date", "2026-03-17"), "en", "It arrives tomorrow.", MONDAY),
    (Fact("date", "2026-03-18"), "en", "It arrives the day after tomorrow.", MONDAY),
    (Fact("date", "2026-03-20"), "en", "It'll be with you by this Friday.", MONDAY),
    (Fact("date", "2026-03-23"), "en", "It'll be with you next Monday.", MONDAY),
    (Fact("date", "2026-03-13"), "en", "You returned it last Friday.", MONDAY),
    (Fact("date", "2026-03-16"), "en", "The refund was issued this morning.", MONDAY),
    (Fact("date", "2026-04-02"), "en", "Your plan resets on the 2nd.", MONDAY),  # passed
    (Fact("date", "2026-03-18"), "de", "Ihr Termin ist am 18. um 9 Uhr.", MONDAY),
    (Fact("date", "2026-03-18"), "de", "Das Paket kommt übermorgen.", MONDAY),
    (Fact("date", "2026-03-17"), "de", "Das Paket kommt morgen früh.", MONDAY),
    (Fact("date", "2026-03-16"), "de", "Ich habe es heute Morgen verschickt.", MONDAY),
    (Fact("date", "2026-03-19"), "de", "Ihr Termin am 19.03. steht.", None),
    (Fact("date", "2026-03-18"), "es", "La entrega será el 18.", MONDAY),
    (Fact("date", "2026-03-18"), "es", "La entrega será el miércoles 18 por la tarde.", MONDAY),
    (Fact("date", "2026-03-17"), "es", "Se lo entregarán mañana.", MONDAY),
    (Fact("date", "2026-03-18"), "es", "Se lo entregarán pasado mañana.", MONDAY),
    (Fact("date", "2026-03-19"), "es", "Lo corregimos el próximo jueves.", MONDAY),
    (Fact("date", "2026-03-17"), "fr", "Votre séance de demain est maintenue.", MONDAY),
    (Fact("date", "2026-03-18"), "fr", "Rendez-vous mercredi 18 à 9 h.", MONDAY),
    (Fact("date", "2026-03-18"), "fr", "La facture sera prélevée le 18.", MONDAY),
    (Fact("date", "2026-05-05"), "fr", "Émise le 1er mai et prélevée le 5.", MONDAY),
    (Fact("date", "2026-03-23"), "fr", "Votre rendez-vous est le lundi vingt-trois mars.", None),
    (Fact("date", "2026-03-09"), "fr", "Je l'ai reçu lundi dernier.", MONDAY),
    # a month the scenario names is a second reading of a bare day
    (
        Fact("date", "2026-04-20"),
        "en",
        "You can change plans on the 20th.",
        Calendar(date(2026, 3, 16), (date(2026, 4, 4),)),
    ),
    # durations across units
    (Fact("duration", 24, "hours"), "en", "Cancel at least a day before.", None),
    (Fact("duration", 24, "hours"), "en", "Cancel at least one day before.", None),
    (Fact("duration", 24, "hours"), "en", "Cancel at least 24h before.", None),
    (Fact("duration", 1, "days"), "en", "Cancel at least 24 hours before.", None),
    (Fact("duration", 336, "hours"), "en", "It takes two weeks.", None),
    (Fact("duration", 30, "minutes"), "en", "It takes half an hour.", None),
    (Fact("duration", 1.5, "hours"), "en", "It takes an hour and a half.", None),
    (Fact("duration", 48, "hours"), "en", "Give it a couple of days.", None),
    (Fact("duration", 90, "minutes"), "de", "Das dauert anderthalb Stunden.", None),
    (Fact("duration", 7, "days"), "de", "Das dauert eine Woche.", None),
    (Fact("duration", 2, "weeks"), "fr", "Comptez quinze jours.", None),
    (Fact("duration", 2, "hours"), "fr", "Un conseiller vous rappellera d'ici 2 heures.", None),
    (Fact("duration", 48, "hours"), "es", "Tardará un par de días.", None),
    (Fact("duration", 1.5, "hours"), "es", "La sesión dura una hora y media.", None),
    (Fact("duration", 2, "hours"), "es", "Se canceló a 2 horas de la cita.", None),
    # the value after a correction is stated
    (Fact("money", 40, "USD"), "en", "Not the 35 dollars, it's 40 dollars.", None),
    (Fact("money", 35, "EUR"), "de", "Ich erstatte 35,00 € – nicht 53,00 €.", None),
    (Fact("date", "2026-03-18"), "es", "No será el lunes, sino el miércoles.", MONDAY),
    (Fact("time", "15:00"), "fr", "Votre rendez-vous est à 15 h, pas à 13 h.", None),
    # a refused act does not rule out the true value it is about
    (Fact("money", 35, "USD"), "en", "I can't refund the $35 charge, I'm afraid.", None),
    (Fact("money", 5.9, "EUR"), "de", "Nicht die 5,90 € Versandkosten, leider.", None),
    # a window without a move states both ends
    (Fact("time", "09:00"), "en", "The store is open from 9:00 to 17:30.", None),
]

# (fact, lang, text, calendar): must not be found
NOT_STATED: list[tuple[Fact, str, str, Calendar | None]] = [
    # a number that counts something, a day, an address, a card, a name, a phone
    (Fact("money", 50), "en", "Your plan has 50 GB of data.", None),
    (Fact("money", 14), "en", "It was delivered to 14 Birch Lane.", None),
    (Fact("money", 18), "en", "See you on the 18th.", None),
    (Fact("money", 4421), "en", "Refunded to the card ending 4421.", None),
    (Fact("money", 500), "en", "You are on Fiber 500.", None),
    (Fact("money", 123), "es", "Llame al 900 123 456.", None),
    (Fact("money", 1), "en", "Give me one moment.", None),
    (Fact("money", 11.5, "USD"), "en", "That's eleven euros fifty.", None),
    (Fact("money", 11, "USD"), "en", "That's eleven dollars fifty.", None),
    (Fact("money", 4), "de", "Es geht an die Musterstraße 4.", None),
    (Fact("money", 20), "de", "Ihr Termin am 20. ist bestätigt.", None),
    (Fact("money", 10), "de", "Der Tarif mit 10 GB reicht.", None),
    (Fact("money", 21), "es", "Lo enviamos a Calle Mayor 21.", None),
    (Fact("money", 600), "es", "Su tarifa es la Fibra 600 Mb.", None),
    (Fact("money", 20), "es", "No hay huecos antes del 20.", None),
    (Fact("money", 8), "fr", "Le colis est au 8 avenue Foch.", None),
    (Fact("money", 40), "fr", "Votre forfait 40 Go est actif.", None),
    (Fact("money", 5), "fr", "Prélevée le 5.", None),
    (Fact("money", 35, "EUR"), "fr", "Je vous rembourse trente-cinq dollars.", None),
    # times: the wrong reading, a count, an amount of time, a date
    (Fact("time", "23:30"), "en", "Your slot is at half past eleven.", None),
    (Fact("time", "16:00"), "en", "We have stores at 4 locations.", None),
    (Fact("time", "02:00"), "en", "It takes 2 hours.", None),
    (Fact("time", "10:00"), "en", "Covered at 100% by the plan.", None),
    (Fact("time", "11:30"), "de", "Ihr Termin ist um halb elf.", None),
    (Fact("time", "10:00"), "de", "Der Preis steigt um 10 Euro.", None),
    (Fact("time", "14:00"), "de", "Die Garantie läuft bis zum 14. Oktober.", None),
    (Fact("time", "02:00"), "es", "Se canceló a 2 horas de la cita.", None),
    (Fact("time", "15:00"), "es", "Tiene las tres opciones.", None),
    (Fact("time", "02:00"), "fr", "Un conseiller vous rappellera d'ici 2 heures.", None),
    (Fact("time", "12:00"), "fr", "Passez dans l'après-midi.", None),
    (Fact("time", "00:00"), "fr", "Prévue dans moins de 24 heures.", None),
    (Fact("time", "14:30"), "fr", "Comptez deux heures et demie de route.", None),
    # dates: no calendar, a count, a habit, opening hours, a recurring day
    (Fact("date", "2026-03-17"), "en", "It arrives tomorrow.", None),
    (Fact("date", "2026-04-03"), "en", "Take the lift to the 3rd floor.", MONDAY),
    (Fact("date", "2026-03-20"), "en", "We are open Monday to Friday.", MONDAY),
    (Fact("date", "2026-03-23"), "en", "We are closed on Mondays.", MONDAY),
    (Fact("date", "2026-04-01"), "en", "It renews on the 1st of each month.", MONDAY),
    (Fact("date", "2026-03-17"), "es", "Pasaré por la mañana.", MONDAY),
    (Fact("date", "2026-03-23"), "es", "Cerramos los lunes.", MONDAY),
    (Fact("date", "2026-03-21"), "es", "Abrimos de lunes a sábado.", MONDAY),
    (Fact("date", "2026-03-17"), "de", "Ich rufe jeden Morgen an.", MONDAY),
    (Fact("date", "2026-03-21"), "de", "Wir haben samstags geöffnet.", MONDAY),
    (Fact("date", "2026-03-21"), "fr", "Ouvert du lundi au samedi.", MONDAY),
    (Fact("date", "2026-03-23"), "fr", "Le lundi, nous fermons à midi.", MONDAY),
    (Fact("date", "2026-03-18"), "en", "See you on the 19th.", MONDAY),
    # durations: ranges, rates, other units, French "à jour"
    (Fact("duration", 3, "days"), "en", "Refunds take 3-5 business days.", None),
    (Fact("duration", 5, "days"), "en", "Refunds take 3-5 business days.", None),
    (Fact("duration", 5, "days"), "fr", "Comptez entre 3 et 5 jours.", None),
    (Fact("duration", 1, "days"), "en", "It costs $10 a day.", None),
    (Fact("duration", 1, "weeks"), "en", "We deliver twice a week.", None),
    (Fact("duration", 30, "days"), "en", "You have one month to return it.", None),
    (Fact("duration", 1, "days"), "fr", "Votre adresse est à jour.", None),
    # values ruled out: negated, corrected, replaced, moved from, taken
    (Fact("money", 35, "USD"), "en", "Not the 35 dollars, it's 40 dollars.", None),
    (Fact("money", 53, "EUR"), "de", "Ich erstatte 35,00 € – nicht 53,00 €.", None),
    (Fact("date", "2026-03-23"), "es", "No será el lunes, sino el miércoles.", MONDAY),
    (Fact("time", "13:00"), "fr", "Votre rendez-vous est à 15 h, pas à 13 h.", None),
    (Fact("date", "2026-03-19"), "en", "It's now on Friday 20 March instead of Thursday.", MONDAY),
    (Fact("date", "2026-04-02"), "en", "I've moved it from the 2nd to the 5th.", MONDAY),
    (
        Fact("date", "2026-04-13"),
        "de",
        "Ich habe den Termin vom 13. auf den 15. April verlegt.",
        None,
    ),
    (Fact("date", "2026-06-12"), "fr", "J'ai déplacé votre séance du 12 au 19 juin.", None),
    (Fact("money", 64, "EUR"), "fr", "Le total passe de 64 € à 54,40 €.", None),
    (Fact("time", "10:00"), "en", "Your 10:00 has now become a 13:30.", None),
    (Fact("time", "16:30"), "en", "The 16:30 slot is already taken, but 17:00 is free.", None),
    (Fact("time", "16:00"), "de", "Der Termin um 16 Uhr ist bereits vergeben.", None),
    (Fact("time", "10:00"), "es", "El hueco de las 10:00 se ocupó.", None),
    (Fact("time", "09:00"), "fr", "Camille a déjà un rendez-vous à 9 h ce jour-là.", None),
    (
        Fact("date", "2026-06-02"),
        "fr",
        "Nouveau : vendredi 5 juin. L'ancien (mardi 2 juin) est annulé.",
        None,
    ),
    (Fact("id", "ORD-50837"), "en", "The order number isn't ORD-50837 — it's ORD-50387.", None),
]


def _shown(case: tuple[Fact, str, str, Calendar | None]) -> str:
    return f"{case[1]}: {case[2]}"


@pytest.mark.parametrize("case", STATED, ids=_shown)
def test_a_fact_said_in_words_or_in_context_is_found(
    case: tuple[Fact, str, str, Calendar | None],
) -> None:
    fact, lang, text, calendar = case
    assert find_fact(fact, text, lang, calendar=calendar) is not None, (fact, text)


@pytest.mark.parametrize("case", NOT_STATED, ids=_shown)
def test_a_near_miss_is_not_read_as_the_fact(case: tuple[Fact, str, str, Calendar | None]) -> None:
    fact, lang, text, calendar = case
    assert find_fact(fact, text, lang, calendar=calendar) is None, (fact, text)


def test_a_bare_number_is_no_statement_of_money_but_may_be_looked_for() -> None:
    text = "Your balance is 74.20 after the refund."
    assert [f for f in stated_facts(text, "en") if f.kind == "money"] == []
    assert find_fact(Fact("money", 74.2), text, "en") is not None


def test_stated_facts_read_relative_days_only_against_a_today() -> None:
    text = "I'll call you back tomorrow at half past ten."
    dated = stated_facts(text, "en", today=date(2026, 3, 16))
    assert ("date", (2026, 3, 17)) in [(f.kind, f.value) for f in dated]
    assert ("time", "10:30") in [(f.kind, f.value) for f in dated]
    assert [f for f in stated_facts(text, "en") if f.kind == "date"] == []


def test_durations_are_read_out_in_hours() -> None:
    read = stated_facts("Cancel a day before; refunds take two weeks.", "en")
    assert sorted(f.value for f in read if f.kind == "duration") == [24.0, 336.0]


def test_an_idiom_is_read_as_it_is_meant_and_its_words_only_looked_for() -> None:
    text = "Comptez quinze jours."
    assert [f.value for f in stated_facts(text, "fr") if f.kind == "duration"] == [336.0]
    assert find_fact(Fact("duration", 15, "days"), text, "fr") is not None


def test_ids_written_apart_are_ids_only_as_codes() -> None:
    assert ("id", "apt-7788") in [
        (f.kind, f.value) for f in stated_facts("Appointment APT 7788 is confirmed.", "en")
    ]
    assert ("id", "ord-50387") in [
        (f.kind, f.value) for f in stated_facts("Tengo el pedido ord 50387.", "es")
    ]
    for text, lang in [
        ("Die Gebühr von CHF 49.– entfällt.", "de"),
        ("Sie gilt ab dem 1. Juli 2026.", "de"),
        ("Ein Fiber-500-Anschluss ist registriert.", "de"),
        ("Se entregó en Av. Insurgentes Sur 1602.", "es"),
    ]:
        assert [f for f in stated_facts(text, lang) if f.kind == "id"] == [], text
