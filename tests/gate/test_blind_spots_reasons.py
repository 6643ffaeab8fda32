"""Reasons name what the command does (issue 25): the approver reads the reason of the rule that decided the
level, so a database deletion must not read as "changes or deletes secrets in a secret manager", nor a
cloud deletion as "syncs files in remote storage". Each case gives words the reason must say and words it
must not.

These strings are data: they are rated, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.classifier import Classifier
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

DATABASE = ("database", ("secret", "storage", "files"))
DELETES = ("deletes", ("secret", "files in remote storage"))
CHANGES = ("creates or changes cloud", ("secret", "files in remote storage"))
SECRETS = ("secrets or keys in a secret manager", ("database", "remote storage"))
SIGN_IN = ("configuration or credentials", ("deletes secrets", "database", "remote storage"))
STORAGE = ("remote storage", ("secret", "database"))

CASES = [
    ("dropdb app", DATABASE),
    ("heroku pg:reset DATABASE_URL --confirm app", DATABASE),
    ("az sql db delete -g rg -s srv -n db --yes", DATABASE),
    ("aws rds delete-db-instance --db-instance-identifier db --skip-final-snapshot", DATABASE),
    ("aws rds delete-db-cluster --db-cluster-identifier c", DATABASE),
    ("aws dynamodb delete-table --table-name t", DATABASE),
    ("gcloud sql instances delete db", DATABASE),
    ("gcloud sql databases delete app --instance db", DATABASE),
    ("gcloud spanner databases delete app --instance i", DATABASE),
    ("az cosmosdb delete -n x -g rg", DATABASE),
    ("az postgres flexible-server delete -n x -g rg", DATABASE),
    ("supabase db reset", DATABASE),
    ("pscale database delete db", DATABASE),
    ("planetscale database delete db", DATABASE),
    ("flyctl postgres destroy db", DATABASE),
    ("wrangler d1 delete db", DATABASE),
    ("doctl databases delete id", DATABASE),
    ("heroku addons:destroy heroku-postgresql --confirm app", DATABASE),
    ("az group delete -n rg --yes", DELETES),
    ("az vm delete -g rg -n vm", DELETES),
    ("az storage account delete -n sa", DELETES),
    ("aws ec2 terminate-instances --instance-ids i-1", DELETES),
    ("aws iam delete-user --user-name bob", DELETES),
    ("aws lambda delete-function --function-name f", DELETES),
    ("aws cloudformation delete-stack --stack-name s", DELETES),
    ("aws ecr delete-repository --repository-name r --force", DELETES),
    ("gcloud compute instances delete vm", DELETES),
    ("gcloud projects delete p", DELETES),
    ("gcloud container clusters delete c", DELETES),
    ("gcloud functions delete f", DELETES),
    ("az webapp delete -n x -g rg", DELETES),
    ("doctl compute droplet delete d", DELETES),
    ("heroku apps:destroy --app x --confirm x", DELETES),
    ("fly apps destroy app", DELETES),
    ("vercel remove app --yes", DELETES),
    ("aws ec2 create-security-group --group-name x --description y", CHANGES),
    ("gcloud compute instances create vm", CHANGES),
    ("az vm create -g rg -n vm --image ubuntu", CHANGES),
    ("aws secretsmanager delete-secret --secret-id x", SECRETS),
    ("aws secretsmanager put-secret-value --secret-id x --secret-string y", SECRETS),
    ("aws ssm put-parameter --name x --value y --type SecureString", SECRETS),
    ("gcloud secrets delete s", SECRETS),
    ("az keyvault secret delete --vault-name kv -n s", SECRETS),
    ("az keyvault delete --name kv", SECRETS),
    ("vault kv destroy -versions=1 secret/x", SECRETS),
    ("doppler secrets delete API_KEY", SECRETS),
    ("op item delete 4f3b2c", SECRETS),
    ("bw delete item x", SECRETS),
    ("infisical secrets delete X", SECRETS),
    ("gcloud kms keys versions destroy 1 --key k --keyring r --location l", SECRETS),
    ("aws configure set region us-east-1", SIGN_IN),
    ("gcloud auth login", SIGN_IN),
    ("gcloud config set project p", SIGN_IN),
    ("az login", SIGN_IN),
    ("aws s3 rm s3://bucket --recursive", STORAGE),
    ("aws s3 rb s3://bucket --force", STORAGE),
    ("aws s3 cp x s3://b/", STORAGE),
    ("gcloud storage rm -r gs://b", STORAGE),
    ("rclone purge remote:bucket", STORAGE),
]


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[case[0] for case in CASES])
def test_the_reason_says_what_the_command_does(classifier: Classifier, command: str,
                                               expected: tuple[str, tuple[str, ...]]) -> None:
    verdict = classifier.classify(ToolCall("shell.run", {"command": command}))
    says, never = expected
    assert verdict.level >= Level.DANGEROUS, (command, verdict)
    head = verdict.reason.split(" (+")[0].lower()
    assert says in head, (command, verdict.reason, verdict.rules)
    for word in never:
        assert word not in head, (command, verdict.reason, verdict.rules)
