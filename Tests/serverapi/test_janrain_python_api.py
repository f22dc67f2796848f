"""The server-side (owner) Capture API of jump-emulator, driven by janrain-python-api 0.4.0, unmodified.

janrain.capture.Api signs requests by default (``Authorization: Signature <client_id>:<hmac>`` plus a
``Date`` header); ``sign_requests=False`` posts ``client_id`` and ``client_secret`` instead; HTTP Basic is
sent with requests directly. Every call goes to a real emulator process over HTTP.
"""

from __future__ import annotations

import base64
import time
import uuid
from typing import Any, Dict, List

import pytest
import requests

PASSWORD = "correct horse battery"


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def error_of(janrain_capture, call) -> Any:
    """The ApiResponseError a call raises (the test fails when it succeeds)."""
    with pytest.raises(janrain_capture.ApiResponseError) as caught:
        call()
    return caught.value


def create(api, **attributes: Any) -> Dict[str, Any]:
    answer = api.call("entity.create", type_name="user", attributes=attributes)
    assert answer["stat"] == "ok"
    assert isinstance(answer["id"], int) and answer["uuid"]
    return answer


def sign_in(emulator, app, email: str, password: str = PASSWORD, **extra: str) -> Dict[str, Any]:
    data = {"client_id": app.client_id, "form": "signInForm", "signInEmailAddress": email,
            "currentPassword": password, **extra}
    return requests.post(emulator.url + "/oauth/auth_native_traditional", data=data, timeout=10).json()


# --- entity.create / entity.count / entity.find -------------------------------------------------------


def people(api) -> List[Dict[str, Any]]:
    return [
        create(api, email=unique_email("ada"), displayName="Ada", givenName="Ada", birthday="1990-05-01",
               primaryAddress={"city": "London"}),
        create(api, email=unique_email("bob"), displayName="Bob", birthday="1985-01-31",
               primaryAddress={"city": "Paris"}, profiles=[{"identifier": "fb-bob", "domain": "facebook.com"}]),
        create(api, email=unique_email("cy"), displayName="Cy", givenName="Cy", primaryAddress={"city": "Paris"}),
    ]


def test_signed_create_count_and_find(owner_api, janrain_capture):
    api = owner_api
    ada, bob, cy = people(api)
    assert api.call("entity.count", type_name="user")["total_count"] == 3
    assert api.call("entity.count", type_name="user", filter="primaryAddress.city = 'Paris'")["total_count"] == 2

    def uuids(**params) -> List[str]:
        answer = api.call("entity.find", type_name="user", **params)
        assert answer["stat"] == "ok"
        assert answer["result_count"] == len(answer["results"])
        return [record["uuid"] for record in answer["results"]]

    # Default order is id order; whole records unless attributes says otherwise.
    assert uuids() == [ada["uuid"], bob["uuid"], cy["uuid"]]
    assert uuids(filter="displayName = 'Bob' or (givenName is not null and birthday < '1995-01-01')") == [
        ada["uuid"], bob["uuid"]]
    assert uuids(filter="givenName is null") == [bob["uuid"]]
    assert uuids(filter="not (primaryAddress.city = 'Paris') and displayName != 'Bob'") == [ada["uuid"]]
    assert uuids(filter="profiles.domain = 'facebook.com'") == [bob["uuid"]]
    assert uuids(filter=f"id > {ada['id']} and id <= '{cy['id']}'") == [bob["uuid"], cy["uuid"]]
    # Email is case-insensitive in the schema, so its filter is too.
    assert uuids(filter=f"email = '{api.call('entity', uuid=cy['uuid'])['result']['email'].upper()}'") == [cy["uuid"]]

    # sort_on with descending keys; nulls last in ascending order.
    assert uuids(sort_on=["-displayName"]) == [cy["uuid"], bob["uuid"], ada["uuid"]]
    assert uuids(sort_on=["birthday"]) == [bob["uuid"], ada["uuid"], cy["uuid"]]
    assert uuids(sort_on=["primaryAddress.city", "-id"]) == [ada["uuid"], cy["uuid"], bob["uuid"]]

    # Paging: first_result is 1-based; show_total_count counts every match.
    page = api.call("entity.find", type_name="user", sort_on=["id"], first_result=2, max_results=1,
                    show_total_count=True)
    assert page["result_count"] == 1 and page["total_count"] == 3
    assert page["results"][0]["uuid"] == bob["uuid"]
    assert "total_count" not in api.call("entity.find", type_name="user", max_results=1)
    assert api.call("entity.find", type_name="user", first_result=4)["results"] == []

    # attributes: only the asked paths, nested as in the record.
    answer = api.call("entity.find", type_name="user", filter="displayName = 'Bob'",
                      attributes=["uuid", "primaryAddress.city", "profiles.domain"])
    assert answer["results"] == [{"uuid": bob["uuid"], "primaryAddress": {"city": "Paris"},
                                  "profiles": [{"domain": "facebook.com"}]}]


def test_bad_find_parameters_name_the_parameter(owner_api, janrain_capture):
    api = owner_api
    create(api, email=unique_email())
    for bad in ["displayName = ", "displayName = 'x", "nosuch = 1", "id = 'seven'", "primaryAddress = 'x'",
                "displayName contains 'x'", "(" * 40 + "id = 1" + ")" * 40, "(" * 5000]:
        error = error_of(janrain_capture, lambda: api.call("entity.find", type_name="user", filter=bad))
        assert error.code == 200, bad
        assert error.response["argument_name"] == "filter", bad
    assert error_of(janrain_capture, lambda: api.call("entity.count", type_name="user", filter="id >")).code == 200
    for name, value in [("sort_on", "displayName"), ("sort_on", ["profiles.domain"]), ("attributes", ["nosuch"]),
                        ("first_result", 0), ("max_results", 0), ("max_results", 100001)]:
        error = error_of(janrain_capture, lambda: api.call("entity.find", type_name="user", **{name: value}))
        assert (error.code, error.response["argument_name"]) == (200, name)
    error = error_of(janrain_capture, lambda: api.call("entity.find", type_name="admin"))
    assert error.code == 222
    error = error_of(janrain_capture, lambda: api.call("entity.count"))
    assert (error.code, error.response["argument_name"]) == (100, "type_name")


def test_entity_create_enforces_the_schema_like_registration(owner_api, janrain_capture, owner_emulator, owner_app):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    email = unique_email("taken")
    created = api.call("entity.create", type_name="user", include_record=True,
                       attributes={"email": email, "displayName": "Dee", "password": PASSWORD,
                                   "profiles": [{"identifier": "g-dee", "domain": "google.com"}]})
    record = created["result"]
    assert record["uuid"] == created["uuid"] and record["id"] == created["id"]
    assert record["displayName"] == "Dee"
    assert record["password"] == {"type": "password-bcrypt"}  # stored as a hash, never echoed
    assert record["profiles"][0]["identifier"] == "g-dee" and isinstance(record["profiles"][0]["id"], int)
    # The password works for a sign-in, as one set by registration does.
    assert sign_in(emulator, app, email)["stat"] == "ok"

    cases = [
        ({"email": email.upper()}, 361),  # unique, case-insensitive
        ({"email": unique_email(), "profiles": [{"identifier": "g-dee"}]}, 361),
        ({"email": unique_email(), "planet": "Mars"}, 223),
        ({"email": unique_email(), "uuid": "mine"}, 234),
        ({"email": unique_email(), "displayName": 7}, 341),
        ({"email": unique_email(), "birthday": "1990-02-30"}, 342),
        ({"email": unique_email(), "profiles": [{"domain": "x.com"}]}, 362),
        ({"email": unique_email(), "displayName": "x" * 65}, 363),
    ]
    for attributes, code in cases:
        error = error_of(janrain_capture, lambda: api.call("entity.create", type_name="user", attributes=attributes))
        assert error.code == code, attributes
    error = error_of(janrain_capture, lambda: api.call("entity.create", type_name="user", attributes=["x"]))
    assert error.code == 341
    error = error_of(janrain_capture, lambda: api.call("entity.create", type_name="user"))
    assert (error.code, error.response["argument_name"]) == (100, "attributes")
    # Nothing of the refused creations was stored.
    assert api.call("entity.count", type_name="user")["total_count"] == 1


# --- /entity, entity.update, entity.replace, entity.delete with owner credentials --------------------


@pytest.mark.parametrize("key", ["uuid", "id"])
def test_entity_calls_by_uuid_and_by_id(owner_api, janrain_capture, key):
    api = owner_api
    created = create(api, email=unique_email(), displayName="Eve", primaryAddress={"city": "Oslo", "zip": "0150"})
    other = create(api, email=unique_email(), displayName="Other")
    name = {key: created[key]}

    record = api.call("entity", type_name="user", **name)["result"]
    assert record["uuid"] == created["uuid"] and record["displayName"] == "Eve"
    assert api.call("entity", attribute_name="primaryAddress.city", **name)["result"] == "Oslo"

    updated = api.call("entity.update", type_name="user", attributes={"givenName": "Eve", "photos": [{"value": "a.png"}]},
                       include_record=True, **name)["result"]
    assert updated["givenName"] == "Eve" and updated["displayName"] == "Eve"
    photo_id = updated["photos"][0]["id"]

    replaced = api.call("entity.replace", attribute_name="primaryAddress", attributes={"city": "Bergen"},
                        include_record=True, **name)["result"]
    assert replaced["city"] == "Bergen" and replaced["zip"] is None

    assert api.call("entity.delete", attribute_name=f"photos#{photo_id}", **name)["stat"] == "ok"
    assert api.call("entity", **name)["result"]["photos"] == []

    # The schema still applies to owner writes.
    assert error_of(janrain_capture, lambda: api.call("entity.update", attributes={"uuid": "x"}, **name)).code == 234
    taken = api.call("entity", uuid=other["uuid"])["result"]["email"]
    assert error_of(janrain_capture, lambda: api.call("entity.update", attributes={"email": taken}, **name)).code == 361

    # The other record was never touched; deleting without attribute_name removes the whole record.
    assert api.call("entity", uuid=other["uuid"])["result"]["displayName"] == "Other"
    assert api.call("entity.delete", type_name="user", **name)["stat"] == "ok"
    assert error_of(janrain_capture, lambda: api.call("entity", **name)).code == 310
    assert api.call("entity.count", type_name="user")["total_count"] == 1


def test_unknown_or_foreign_records_are_not_found(owner_api, janrain_capture, owner_emulator, owner_app):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    unknown = str(uuid.uuid4())
    for call, params in [("entity", {"uuid": unknown}), ("entity", {"id": 999999}),
                         ("entity.update", {"uuid": unknown, "attributes": {"displayName": "x"}}),
                         ("entity.replace", {"id": 999999, "attributes": {"displayName": "x"}}),
                         ("entity.delete", {"uuid": unknown})]:
        error = error_of(janrain_capture, lambda: api.call(call, **params))
        assert (error.code, error.error) == (310, "record_not_found"), call
    # A record of another app is not found either: an owner sees its own app's records only.
    foreign = emulator.admin("POST", "/emulator/users", {"email": unique_email("foreign")})["user"]
    assert error_of(janrain_capture, lambda: api.call("entity", uuid=foreign["uuid"])).code == 310
    mine = create(api, email=unique_email())
    assert error_of(janrain_capture, lambda: api.call("entity", uuid=mine["uuid"], id=mine["id"] + 1)).code == 310
    assert error_of(janrain_capture, lambda: api.call("entity", type_name="admin", uuid=mine["uuid"])).code == 222
    error = error_of(janrain_capture, lambda: api.call("entity"))
    assert (error.code, error.response["argument_name"]) == (100, "uuid")
    assert error_of(janrain_capture, lambda: api.call("entity", id="seven")).code == 200


def test_owner_writes_are_not_limited_by_write_with_token(owner_api, janrain_capture, owner_emulator, owner_app):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    email = unique_email()
    created = create(api, email=email, password=PASSWORD, displayName="Fay")
    assert api.call("entityType.setAccessSchema", type_name="user", access_type="write_with_token",
                    attributes=["givenName"])["stat"] == "ok"
    assert api.call("entityType.getAccessSchema", type_name="user", access_type="write_with_token")[
        "attributes"] == ["/givenName"]
    token = sign_in(emulator, app, email)["access_token"]
    # The user's token is limited to the access schema...
    tokened = requests.post(emulator.url + "/entity.update",
                            data={"access_token": token, "attributes": '{"displayName":"Token"}'}, timeout=10).json()
    assert tokened["code"] == 223
    # ...the owner is not.
    api.call("entity.update", uuid=created["uuid"], attributes={"displayName": "Owner"})
    assert api.call("entity", uuid=created["uuid"])["result"]["displayName"] == "Owner"

    schema = api.call("entityType", type_name="user")
    assert schema["schema"]["name"] == "user"
    assert any(a["name"] == "email" for a in schema["schema"]["attr_defs"])
    assert schema["access_schema"] == {"write_with_token": ["/givenName"]}


# --- the three ways to present the owner's credentials ------------------------------------------------


def test_unsigned_form_credentials(janrain_capture, owner_emulator, owner_app):
    app = owner_app
    emulator = owner_emulator
    plain = janrain_capture.Api(emulator.url, app.credentials, sign_requests=False)
    created = plain.call("entity.create", type_name="user", attributes={"email": unique_email(), "displayName": "Gus"})
    assert plain.call("entity", id=created["id"])["result"]["displayName"] == "Gus"
    assert plain.call("entity.count", type_name="user", filter="displayName = 'Gus'")["total_count"] == 1
    assert plain.call("entity.find", type_name="user")["results"][0]["uuid"] == created["uuid"]
    assert plain.call("entityType", type_name="user")["stat"] == "ok"
    wrong = janrain_capture.Api(emulator.url, {"client_id": app.client_id, "client_secret": "wrong"},
                                sign_requests=False)
    assert error_of(janrain_capture, lambda: wrong.call("entity.count", type_name="user")).code == 402
    nobody = janrain_capture.Api(emulator.url, {"client_id": "nobody", "client_secret": "x"}, sign_requests=False)
    assert error_of(janrain_capture, lambda: nobody.call("entity.find", type_name="user")).code == 402
    alone = janrain_capture.Api(emulator.url, {"client_id": app.client_id}, sign_requests=False)
    error = error_of(janrain_capture, lambda: alone.call("entity.count", type_name="user"))
    assert (error.code, error.response["argument_name"]) == (100, "client_secret")


def test_http_basic(owner_emulator, owner_app, owner_api):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    created = create(api, email=unique_email(), displayName="Hal")

    def basic(path: str, secret: str, **data: Any) -> Dict[str, Any]:
        token = base64.b64encode(f"{app.client_id}:{secret}".encode()).decode()
        response = requests.post(emulator.url + path, data=data, headers={"Authorization": f"Basic {token}"},
                                 timeout=10)
        return response.json()

    assert basic("/entity.count", app.client_secret, type_name="user")["total_count"] == 1
    assert basic("/entity", app.client_secret, uuid=created["uuid"])["result"]["displayName"] == "Hal"
    assert basic("/entity.update", app.client_secret, id=str(created["id"]),
                 attributes='{"givenName":"Hal"}')["stat"] == "ok"
    assert basic("/entity.find", app.client_secret, type_name="user", filter="givenName = 'Hal'")["result_count"] == 1
    assert basic("/entity.count", "wrong", type_name="user")["code"] == 402


def test_signed_calls_refuse_bad_credentials(janrain_capture, owner_emulator, owner_app, owner_api, monkeypatch):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    signing = janrain_capture.api
    create(api, email=unique_email())

    wrong = janrain_capture.Api(emulator.url, {"client_id": app.client_id, "client_secret": "wrong"})
    error = error_of(janrain_capture, lambda: wrong.call("entity.count", type_name="user"))
    assert (error.code, error.error) == (402, "invalid_client_credentials")
    nobody = janrain_capture.Api(emulator.url, {"client_id": "nobody", "client_secret": app.client_secret})
    assert error_of(janrain_capture, lambda: nobody.call("entity.find", type_name="user")).code == 402

    # A request signed by the library, then changed: a parameter, or the signature itself.
    headers, params = signing.generate_signature(
        "/entity.count", {"type_name": b"user", "filter": b"displayName is null", **{
            k: v.encode() for k, v in app.credentials.items()}})
    good = requests.post(emulator.url + "/entity.count", data=params, headers=headers, timeout=10).json()
    assert good["stat"] == "ok"
    changed = requests.post(emulator.url + "/entity.count", data={**params, "filter": "id > 0"}, headers=headers,
                            timeout=10).json()
    assert changed["code"] == 402
    scheme, value = headers["Authorization"].split(" ", 1)
    client, mac = value.split(":", 1)
    flipped = ("A" if mac[0] != "A" else "B") + mac[1:]
    tampered = requests.post(emulator.url + "/entity.count", data=params, timeout=10,
                             headers={**headers, "Authorization": f"{scheme} {client}:{flipped}"}).json()
    assert tampered["code"] == 402
    # The signature covers the path: replaying it on another endpoint fails.
    assert requests.post(emulator.url + "/entity.find", data=params, headers=headers, timeout=10).json()["code"] == 402
    # No Date header: 100; a Date in another format: 200.
    undated = requests.post(emulator.url + "/entity.count", data=params, timeout=10,
                            headers={"Authorization": headers["Authorization"]}).json()
    assert (undated["code"], undated["argument_name"]) == (100, "Date")
    http_date = requests.post(emulator.url + "/entity.count", data=params, timeout=10,
                              headers={**headers, "Date": "Wed, 25 Nov 2026 16:30:00 GMT"}).json()
    assert (http_date["code"], http_date["argument_name"]) == (200, "Date")

    # A Date more than five minutes from now, signed correctly by the library: 200 argument Date.
    class Skewed:
        strftime = staticmethod(time.strftime)
        offset = -3600

        @classmethod
        def gmtime(cls):
            return time.gmtime(time.time() + cls.offset)

    monkeypatch.setattr(signing, "time", Skewed)
    error = error_of(janrain_capture, lambda: api.call("entity.count", type_name="user"))
    assert (error.code, error.response["argument_name"]) == (200, "Date")
    Skewed.offset = 3600
    assert error_of(janrain_capture, lambda: api.call("entity.count", type_name="user")).code == 200
    Skewed.offset = -60  # a slow clock within the window is fine
    assert api.call("entity.count", type_name="user")["total_count"] == 1


def test_oauth_token_signed(owner_api, janrain_capture, owner_emulator, owner_app):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    email = unique_email()
    create(api, email=email, password=PASSWORD)
    signed_in = sign_in(emulator, app, email, response_type="code_and_token", redirect_uri="http://localhost/done")
    code = signed_in["authorization_code"]
    exchanged = api.call("oauth/token", grant_type="authorization_code", code=code,
                         redirect_uri="http://localhost/done")
    assert exchanged["stat"] == "ok" and exchanged["access_token"] and exchanged["refresh_token"]
    refreshed = api.call("oauth/token", grant_type="refresh_token", refresh_token=exchanged["refresh_token"])
    assert refreshed["access_token"] != exchanged["access_token"]
    # The refresh token is single use; errors come as HTTP 400, which the library reads as API errors.
    error = error_of(janrain_capture, lambda: api.call("oauth/token", grant_type="refresh_token",
                                                       refresh_token=exchanged["refresh_token"]))
    assert (error.code, error.response["argument_name"]) == (200, "refresh_token")
    error = error_of(janrain_capture, lambda: api.call("/oauth/token"))
    assert (error.code, error.response["sub_error"]) == (100, "missing_argument")
    wrong = janrain_capture.Api(emulator.url, {"client_id": app.client_id, "client_secret": "wrong"})
    assert error_of(janrain_capture, lambda: wrong.call("oauth/token", grant_type="refresh_token",
                                                        refresh_token="x")).code == 402
    # The token it issued is an ordinary access token of that user.
    record = requests.post(emulator.url + "/entity", data={"access_token": refreshed["access_token"]},
                           timeout=10).json()
    assert record["result"]["email"] == email


def test_an_access_token_cannot_call_owner_endpoints(owner_api, janrain_capture, owner_emulator, owner_app):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    email = unique_email()
    create(api, email=email, password=PASSWORD)
    token = sign_in(emulator, app, email)["access_token"]
    # With access_token in its defaults the library sends Authorization: OAuth <token>.
    as_user = janrain_capture.Api(emulator.url, {"access_token": token})
    for call, params in [("entity.find", {}), ("entity.count", {}),
                         ("entity.create", {"attributes": {"email": unique_email()}})]:
        error = error_of(janrain_capture, lambda: as_user.call(call, type_name="user", **params))
        assert (error.code, error.error) == (403, "client_permission_error"), call
    # The token still reads its own record, as before.
    assert as_user.call("entity")["result"]["email"] == email
    assert api.call("entity.count", type_name="user")["total_count"] == 1


# --- query string vs POST body ------------------------------------------------------------------------


def test_sign_in_and_owner_calls_read_the_post_body_only(owner_api, owner_emulator, owner_app):
    api = owner_api
    app = owner_app
    emulator = owner_emulator
    email = unique_email()
    create(api, email=email, password=PASSWORD)
    params = {"client_id": app.client_id, "form": "signInForm", "signInEmailAddress": email,
              "currentPassword": PASSWORD}
    in_query = requests.post(emulator.url + "/oauth/auth_native_traditional", params=params, timeout=10).json()
    assert (in_query["code"], in_query["argument_name"]) == (100, "client_id")
    assert "query string" in in_query["error_description"]
    assert requests.post(emulator.url + "/oauth/auth_native_traditional", data=params, timeout=10).json()[
        "stat"] == "ok"

    registration = {"client_id": app.client_id, "form": "registrationForm", "emailAddress": unique_email(),
                    "newPassword": PASSWORD, "newPasswordConfirm": PASSWORD, "displayName": "Q", "firstName": "Q",
                    "lastName": "Q"}
    refused = requests.post(emulator.url + "/oauth/register_native_traditional", params=registration,
                            timeout=10).json()
    assert refused["code"] == 100 and "query string" in refused["error_description"]

    # A client secret is never read from a URL.
    owner = requests.post(emulator.url + "/entity.count", params={"client_secret": app.client_secret},
                          data={"client_id": app.client_id, "type_name": "user"}, timeout=10).json()
    assert (owner["code"], owner["argument_name"]) == (100, "client_secret")
    assert "query string" in owner["error_description"]
    by_uuid = requests.post(emulator.url + "/entity", params={"client_secret": app.client_secret},
                            data={"client_id": app.client_id, "uuid": "x"}, timeout=10).json()
    assert (by_uuid["code"], by_uuid["argument_name"]) == (100, "client_secret")
    token = requests.post(emulator.url + "/oauth/token", params={"grant_type": "refresh_token"},
                          data={"refresh_token": "x", **app.credentials}, timeout=10)
    assert token.status_code == 400 and token.json()["argument_name"] == "grant_type"
