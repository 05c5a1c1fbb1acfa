"""Third-party import on the dashboard's Overview tab (spec 3): the banner by status, the 3-step wizard, its
proof files and the success screen.

Each step is checked by the service's own rules, which the submit applies again; proof files are checked
by their content and kept (privately) as soon as they are chosen, a whole batch refused if one is bad."""

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.messages import registration as file_msg
from cycling_site.messages import third_party_import as msg
from cycling_site.models.third_party_import import ThirdPartyImport
from cycling_site.services import rider_files
from cycling_site.services import third_party_import as imports
from cycling_site.services.validation import FormErrors
from cycling_site.state.changes import put
from cycling_site.state.session import Rider, rider_action

STEPS = imports.STEPS
# Which step shows each field, so a message from the submit opens the step that can fix it.
FIELD_STEPS = {
    "migration_platform": 0,
    **dict.fromkeys(("days", "hours", "minutes", "distance", "distance_unit", "elevation"), 1),
    **dict.fromkeys(("profile_link", "proof_files"), 2),
}
TYPED_FIELDS = ("days", "hours", "minutes", "distance", "distance_unit", "elevation", "profile_link")
EMPTY_FORM = {**dict.fromkeys(TYPED_FIELDS, ""), "migration_platform": "", "distance_unit": "kilometers"}


class ImportState(rx.State):
    banner: str = ""
    platform: str = ""
    reason: str = ""
    error: str = ""

    wizard_open: bool = False
    step_index: int = 0
    values: dict[str, str] = EMPTY_FORM
    errors: dict[str, str] = {}
    form_error: str = ""
    form_version: int = 0
    files: list[dict[str, str]] = []
    files_alert: str = ""
    uploading: bool = False
    submitting: bool = False
    submitted: bool = False
    seeing: bool = False
    _back: bool = False

    @rx.var
    def title(self) -> str:
        platform = self.values.get("migration_platform", "")
        if self.step_index == 1:
            return msg.STEP_STATS.format(platform=platform)
        if self.step_index == 2:
            return msg.STEP_PROOF.format(platform=platform)
        return msg.STEP_PLATFORM

    @rx.var
    def last_step(self) -> bool:
        return self.step_index == len(STEPS) - 1

    @rx.var
    def approved_text(self) -> str:
        return msg.APPROVED_TEXT.format(platform=self.platform)

    def _show(self, row: ThirdPartyImport | None) -> None:
        put(
            self,
            banner=imports.banner(row),
            platform=row.migration_platform if row else "",
            reason=row.reason if row else "",
        )

    def opened(self, row: ThirdPartyImport | None) -> None:
        """Every dashboard load shows the latest import, read with the dashboard's header; the wizard starts
        closed (the state outlives a page reload)."""
        put(self, error="", wizard_open=False, submitted=False)
        self._show(row)

    @rx.event
    def open_wizard(self) -> None:
        """A fresh wizard: the offer's Import and the declined banner's Re-import both start here."""
        self.values = dict(EMPTY_FORM)
        self.errors = {}
        self.form_error = self.files_alert = ""
        self.files = []
        self.step_index = 0
        self.submitted = False
        self.form_version += 1
        self.wizard_open = True

    @rx.event
    def close_wizard(self, open_: bool = False) -> None:
        if not open_ and not self.submitting:
            self.wizard_open = False

    @rx.event
    def choose_platform(self, value: str) -> None:
        if value in imports.PLATFORMS:
            self.values = {**self.values, "migration_platform": value}
            self.errors = {name: text for name, text in self.errors.items() if name != "migration_platform"}

    @rx.event
    def go_back(self) -> None:
        """Marks the form submit that follows this click as a step back, which keeps what was typed."""
        self._back = True

    @rx.event
    @rider_action()
    async def next_step(self, rider: Rider, form_data: dict):
        """Keeps the step's values, checks them, then moves on; the last step sends the import."""
        typed = {name: str(form_data[name])[:600] for name in TYPED_FIELDS if form_data.get(name) is not None}
        self.values = {**self.values, **typed}
        self.form_error = ""
        if self._back:
            self._back = False
            self.errors = {}
            self.step_index = max(self.step_index - 1, 0)
            self.form_version += 1
            return
        form = imports.ImportForm.of(self.values)
        try:
            if not self.last_step:
                imports.check_step(STEPS[self.step_index], form)
                self.errors = {}
                self.step_index += 1
                self.form_version += 1
                return
            self.submitting = True
            yield
            row = await rider.off_loop(
                imports.submit, rider.account, form, [file["id"] for file in self.files]
            )
        except FormErrors as exc:
            self._show_errors(exc.errors)
            return
        except SQLAlchemyError:
            self.form_error = msg.STATUS_FAILED
            return
        finally:
            self.submitting = False
        self.errors = {}
        self._show(row)
        self.submitted = True

    def _show_errors(self, errors: dict[str, str]) -> None:
        """Messages under their fields, on the first step that shows one; others above the form."""
        self.form_error = errors.get("import", "")
        field_errors = {name: text for name, text in errors.items() if name in FIELD_STEPS}
        if field_errors:
            first = min(FIELD_STEPS[name] for name in field_errors)
            if first != self.step_index:
                self.step_index = first
                self.form_version += 1
        self.errors = field_errors

    # --- Proof files ------------------------------------------------------------------------------------

    @rx.event
    @rider_action()
    async def upload_proofs(self, rider: Rider, files: list[rx.UploadFile]):
        """Up to 10 files in all; each is checked by its content and a batch with a bad one keeps none."""
        if not files:
            return
        self.files_alert = ""
        self.errors = {name: text for name, text in self.errors.items() if name != "proof_files"}
        if len(self.files) + len(files) > imports.MAX_PROOF_FILES:
            self.files_alert = msg.TOO_MANY_FILES
            return
        self.uploading = True
        yield
        try:
            batch = [(file.name or "", await file.read(rider_files.MAX_FILE_BYTES + 1)) for file in files]
            for _name, data in batch:
                rider_files.check_content(imports.PROOF_KIND, data)
            stored = [
                await rider.off_loop(rider_files.store, rider.account, imports.PROOF_KIND, name, data)
                for name, data in batch
            ]
        except FormErrors as exc:
            self.errors = {**self.errors, "proof_files": next(iter(exc.errors.values()))}
            return
        finally:
            self.uploading = False
        self.files = [*self.files, *({"id": str(row.id), "name": row.name} for row in stored)]

    @rx.event
    def files_rejected(self, codes: str) -> None:
        """The browser's own check refused the files before any was sent: too many, too large or a type
        that is not an image or a PDF."""
        found = set(codes.split(","))
        if "too-many-files" in found:
            self.files_alert = msg.TOO_MANY_FILES
        elif "file-too-large" in found:
            self.errors = {**self.errors, "proof_files": file_msg.FILE_TOO_LARGE}
        else:
            self.errors = {**self.errors, "proof_files": file_msg.INVALID_FILE_TYPE}

    @rx.event
    def remove_file(self, file_id: str) -> None:
        self.files = [file for file in self.files if file["id"] != file_id]
        self.files_alert = ""

    # --- After the submit and the decision ---------------------------------------------------------------

    @rx.event
    def done(self):
        """The success screen's Done closes the wizard and reloads the page (spec 3)."""
        self.wizard_open = self.submitted = False
        return rx.call_script("window.location.reload()")

    @rx.event
    @rider_action(busy="seeing", errors="error")
    async def got_it(self, rider: Rider):
        """Got It on the Congratulations banner marks the approved import seen: the banner goes."""
        try:
            self._show(await rider.off_loop(imports.set_has_seen, rider.account))
        except SQLAlchemyError:
            self.error = msg.STATUS_FAILED
