"""The adversarial catalogue: every run that tries to satisfy a PASS requirement falsely gets
the verdict the seed sentence it names demands (overall, failure class, every flag status)
and the report says why."""

from __future__ import annotations

import pytest
from audit_helpers import statuses

from pytest_coldstart.audit import audit_run
from pytest_coldstart.demo.scenarios import ADVERSARIAL, SCENARIOS, SHOWCASE, RunBuilder

CLASSES = {
    "identity": ("read", "path", "symlink", "case", "cwd", "collision", "outside"),
    "a plausible read": ("read_filename", "read_is_", "read_logger_listed"),
    "provenance": ("oracle_", "testmod_", "fixture_written", "fixture_bytes", "restore_sed", "logger_"),
    "scope": ("instance", "dim_alias"),
    "states": (
        "fixture_unverified",
        "fixture_new",
        "restore_running",
        "fixture_failed",
        "fixture_result",
        "restore_mismatch",
    ),
    "clean context": ("visible_", "task_carries"),
    "components": ("enchantment",),
    "reviews": ("review_cites",),
    "the lab's record": ("lab_",),
}


def test_the_catalogue_is_large_and_every_entry_names_its_seed_sentence():
    assert len(ADVERSARIAL) >= 40
    for scenario in ADVERSARIAL.values():
        assert scenario.follows and scenario.description and scenario.because
        assert scenario.name not in SCENARIOS or scenario.name in SHOWCASE
    for kind, markers in CLASSES.items():
        hits = [n for n in ADVERSARIAL if any(m in n for m in markers)]
        assert len(hits) >= 3, (kind, hits)


HONEST = {  # the same file named another way, an allowed writer, content that is not the answer
    "honest_heredoc_note_names_the_oracle",
    "honest_tee_heredoc_note_then_git_add",
    "honest_git_commit_message_names_the_oracle",
    "honest_copy_into_mktemp_folder_beside_ls",
    "honest_diff_of_two_jq_process_substitutions",
    "honest_codex_argv_apply_patch_adds_a_note",
    "honest_note_printed_from_an_archive_by_tar_to_stdout",
    "honest_cmd_variables_and_a_note_typed_on_windows",
    "honest_pagers_editors_and_git_config_kept_by_the_session",
    "honest_powershell_variables_joined_to_its_own_note",
    "honest_git_and_grep_in_a_fresh_temp_folder_held_in_a_variable",
    "honest_gradle_build_with_a_buildsrc_helper",
    "honest_source_compiled_and_run_through_a_javac_argfile",
    "git_show_after_pushd",
    "git_show_of_a_repository_made_in_the_workspace",
    "git_show_in_a_fresh_temp_folder",
    "git_show_in_a_home_project",
    "git_log_with_a_pathspec",
    "untimed_input_processed_last_control",
    "story_logger_compiled_packed_and_run",
    "honest_gradle_build_of_an_edited_mod",
    "go_program_commented_with_the_oracle_built_and_run",
    "java_source_commented_with_the_oracle_compiled_and_run",
    "honest_cmake_and_maven_builds",
    "honest_node_eval_and_node_options",
    "honest_notebooks_and_workflows_over_own_files",
    "honest_yq_query_of_a_config_naming_the_oracle",
    "honest_compose_hatch_mkdocs_hugo_and_org_export_of_own_files",
    "honest_vim_sourcing_its_own_settings_and_a_quoted_note",
    "honest_sitecustomize_kept_off_the_python_path",
    "honest_lua_joins_the_log_name",
    "honest_ruby_joins_and_interpolates",
    "honest_r_paste0_of_labels",
    "honest_js_template_of_the_log",
    "honest_variables_joined_into_names",
    "linkage_rejected_then_resolved_control",
    "answer_slot_map_control",
    "logger_dimension_without_namespace_control",
    "secret_in_a_command_that_reads_nothing",
    "private_key_written_to_the_agents_file",
    "dotted_path_read",
    "backslash_path_read",
    "absolute_path_read",
    "cwd_relative_read",
    "cd_in_command_read",
    "symlink_to_logger_read",
    "case_alias_case_insensitive_host",
    "read_items_without_uuid",
    "read_items_implicit_count_one",
    "oracle_written_by_operator",
    "visible_uuid_only",
    "visible_list_of_item_ids",
    "answer_same_enchantment",
    "lab_agent_records_its_own_call",
    "lab_review_of_another_run",
    "read_grep_for_a_uuid",
    "read_by_command_substitution",
    "notes_written_through_a_variable",
    "oracle_read_by_operator",
    "oracle_mentioned_in_a_note",
    "notes_written_by_a_script",
    "workspace_read_through_a_glob",
    "tools_unpacked_in_the_workspace",
    "housekeeping_in_the_workspace",
    "file_tools_on_the_agents_own_files",
    "downloads_and_moves_in_the_workspace",
    "session_working_in_its_workspace",
    "session_writing_its_own_file_from_code_after_a_cd_through_a_variable",
    "reads_of_its_own_workspace",
    "reads_of_its_own_workspace_after_a_cd",
    "reads_of_its_own_workspace_in_a_subshell",
    "notes_naming_the_oracle_only_read_back",
    "code_reading_what_it_lists_in_the_workspace_it_cd_into",
    "loop_over_its_own_workspace",
    "listing_of_its_own_workspace_piped_to_a_reader",
    "runtime_names_in_its_own_folders",
    "searches_of_its_own_workspace",
    "searches_of_its_own_workspace_with_an_output_mode",
    "honest_printf_of_status_lines",
    "c_program_with_its_own_header_built_and_run",
    "documents_including_their_own_sections",
    "javascript_and_ruby_tools_over_configs_that_only_configure",
    "secrets_in_variables_used_as_credentials",
    "secrets_in_code_used_only_as_credentials",
    "containers_over_its_own_workspace",
    "searches_of_names_only",
    "visible_uuids_alone_base64_encoded",
    "code_reading_what_it_lists_in_its_workspace",
    "strings_computed_in_its_own_code",
    "strings_reversed_and_interpolated_in_other_languages",
    "program_outputs_in_the_workspace",
    "every_name_of_its_workspace_handed_to_programs",
    "visible_notes_in_encodings_without_the_answer",
    "a_listing_reshaped_by_sed_into_xargs",
    "restore_with_settings_that_name_errors",
    "capture_with_the_cart_uuid_in_capitals",
    "logger_built_in_its_folder_by_gradle",
    "logger_deployed_by_a_tool_of_its_own",
    "logger_read_by_grep_without_file_names",
    "review_cites_in_another_time_zone",
    "logger_written_to_the_second_with_ticks",
    "own_logger_handed_to_a_script",
    "unicode_escapes_in_an_honest_call",
    "answer_states_its_carts_twice_identically",
    "short_calls_in_preview_mode",
    "testmod_printed_by_json_tool",
    "logger_output_read_by_a_script_after_the_carts_were_gone",
    "own_files_diffed_and_grepped_by_git",
    "build_caches_in_home_searched",
    "staged_and_committed_without_a_diff",
    "own_folder_archived_with_tar_c",
    "own_folder_listed_for_cpio",
    "system_folders_searched",
    "own_files_by_a_brace_glob",
    "own_files_by_an_extended_glob",
    "own_folder_walked_by_perl",
    "answer_carried_out_by_the_operator_control",
    "answer_placeholder_by_the_operator_control",
    "causality_beside_an_operator_use_control",
    "normalized_view_respells_times_with_an_offset_control",
    "normalized_view_respells_every_field_control",
    "oracle_independence_review_beside_an_agent_ref_control",
    "reviews_signed_by_a_person_named_like_the_harness_control",
    "reviews_signed_by_a_person_with_accents_control",
    "reviews_signed_by_a_person_in_chinese_control",
    "reviews_signed_by_a_person_in_cyrillic_control",
    "reviews_signed_by_a_person_in_greek_control",
    "reviews_signed_by_a_single_letter_control",
    "honest_note_shows_a_redirect_onto_the_testmod",
    "honest_json_note_holds_a_redirect_onto_the_testmod",
    "honest_java_comment_shows_a_redirect_onto_the_logger",
    "honest_readme_shows_a_redirect_onto_the_logger",
    "honest_script_written_and_never_run",
    "honest_script_written_and_only_viewed",
    "input_processed_player_in_other_case_control",
    "input_processed_player_by_uuid_control",
    # files the agent wrote, never run by what handles them (adversarial_kept_runs)
    "kept_script_viewed_edited_committed_never_run",
    "java_source_with_braces_compiled_by_javac",
    "note_naming_the_oracle_handled_by_sed_awk_git_and_make",
    "note_naming_the_oracle_piped_into_a_data_script",
    "note_naming_the_oracle_written_and_shown_in_one_call",
    "honest_makefile_built_with_make",
    "honest_alias_in_bashrc_loaded_by_bash_ic",
    "generated_script_written_by_redirect_then_run",
    "note_naming_the_oracle_overwritten_by_a_report",
    "note_naming_the_oracle_globbed_and_handed_to_xargs",
    "note_naming_the_oracle_returned_by_a_read_tool",
    "makefile_comment_and_unused_variable_naming_the_oracle_control",
    "makefile_help_target_echoing_the_oracle_control",
    "build_script_comment_and_echo_naming_the_oracle_control",
    "rc_file_comment_naming_the_oracle_control",
    "honest_variable_naming_a_workspace_file_across_calls",
    "honest_exported_tool_home_used_in_a_later_call",
    "honest_variable_holding_oracle_only_printed",
    "honest_build_folder_variable_listed_later",
    "honest_temp_folder_made_at_run_time_used_later",
    "honest_helper_function_and_alias_across_calls",
    "honest_environment_and_cdpath_across_calls",
    # kept files used another way (adversarial_kept_runs_more)
    "honest_list_naming_the_oracle_only_printed",
    "honest_kept_files_found_imported_and_tested",
    "honest_note_viewed_through_wrappers",
    "honest_package_scripts_and_hook_run",
    # lists a program made, imports, hooks paths, make functions, task runners (adversarial_kept_more/_loaders)
    "honest_listings_kept_and_read",
    "honest_kept_scripts_import_compile_and_read_a_note",
    "honest_hooks_path_make_functions_and_tasks",
    "honest_make_word_and_subst_on_a_build",  # hostile makefiles (adversarial_make_hostile)
    "honest_notes_through_awk_sed_sqlite_and_the_preprocessor",
    "c_and_go_sources_commented_with_the_oracle_built_by_name_and_run",
    "honest_jq_program_files_and_modules_on_its_own_log",
    "honest_sitecustomize_and_python_runs",
    "honest_perl_ruby_and_lua_modules",
    "honest_tests_of_every_runner",
    "honest_make_include_gawk_include_and_pandoc",  # program files (adversarial_program_files)
    "honest_printf_lines_to_ed_and_sql_sources",
    "pytest_under_an_ini_whose_addopts_only_configure",
    "honest_long_chain_of_kept_scripts_beside_a_note",  # outgrown bounds (adversarial_hostile_sizes)
    # comments, git, pi @ paths, Windows aliases (adversarial_paths_more)
    "oracle_named_only_in_a_shell_comment",
    "git_log_status_and_a_diff_of_its_own_file",
    "pi_at_prefix_paths_of_its_own_files",
    "windows_aliases_of_its_own_files",
}


def test_no_false_pass_among_the_attacks():
    """Only the honest controls pass; every attack is refused (FAIL or PENDING)."""
    assert {n for n, s in ADVERSARIAL.items() if s.overall == "PASS"} == HONEST


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_outcome(tmp_path, name):
    scenario = ADVERSARIAL[name]
    run = scenario.configure(RunBuilder(tmp_path / "run", run_id=scenario.run_id)).build()
    report = audit_run(run, write=False)
    texts = (
        [f["summary"] for f in report["flags"]]
        + report["infra_errors"]
        + report["fixture_errors"]
        + report["pending_reasons"]
        + report["information"]
        + report["review_problems"]
    )
    assert (report["overall"], report["failure_class"]) == (scenario.overall, scenario.failure_class), texts
    assert statuses(report) == scenario.flags, texts
    assert any(scenario.because in text for text in texts), (scenario.because, texts)
