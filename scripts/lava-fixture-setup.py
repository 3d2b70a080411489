#!/usr/bin/python3
# Sets up a private LAVA instance's database for the tests (scripts/lava-fixture.sh): runs the
# migrations (unless the cached cluster already has them), then creates the test user with
# an API token, one worker, the device type and the devices. One Python process instead of a
# `lava-server manage` call per object. Prints KEY=VALUE lines.
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lava_server.settings.prod")
import django  # noqa: E402

django.setup()
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from linaro_django_xmlrpc.models import AuthToken  # noqa: E402
from lava_scheduler_app.models import Device, DeviceType, Tag, Worker  # noqa: E402

mode = sys.argv[1]
if mode == "migrate":
    call_command("migrate", interactive=False, verbosity=0)
    sys.exit(0)

# populate WORKER DEVICETYPE name[:tag,tag] ...
worker_name, device_type = sys.argv[2], sys.argv[3]
user, _ = User.objects.get_or_create(username="embark", defaults={"is_superuser": True, "is_staff": True})
user.is_superuser = True
user.is_staff = True
user.save()
token = AuthToken.objects.create(user=user, description="embark tests")
other, _ = User.objects.get_or_create(username="embark-other")
worker, _ = Worker.objects.get_or_create(hostname=worker_name, defaults={"health": Worker.HEALTH_ACTIVE})
worker.health = Worker.HEALTH_ACTIVE
worker.save()
dt, _ = DeviceType.objects.get_or_create(name=device_type)
for spec in sys.argv[4:]:
    name, _, tags = spec.partition(":")
    device, _ = Device.objects.get_or_create(
        hostname=name,
        defaults={"device_type": dt, "worker_host": worker, "state": Device.STATE_IDLE, "health": Device.HEALTH_GOOD},
    )
    for tag in filter(None, tags.split(",")):
        device.tags.add(Tag.objects.get_or_create(name=tag)[0])
# Job ids start at a random high number: a device of the tests is this computer, where LAVA
# unpacks each job's overlay as /lava-<job id>, so ids of different runs never collide.
import random  # noqa: E402
from django.db import connection  # noqa: E402

with connection.cursor() as cursor:
    cursor.execute(
        "SELECT setval(pg_get_serial_sequence('lava_scheduler_app_testjob', 'id'), %s)",
        [random.randint(10**6, 10**9)],
    )
print("TOKEN=%s" % token.secret)
print("WORKER_TOKEN=%s" % worker.token)
